// Package tn3270 is a TN3270 client (RFC 1576; the basic TN3270 of
// RFC 2355, not TN3270E): telnet with TERMINAL-TYPE "IBM-3278-2",
// END-OF-RECORD and BINARY both ways, carrying 3270 data-stream records.
// It knows nothing of URLs.
//
//	var d tn3270.Dialer
//	c, err := d.Dial(ctx, "host:23")
//	err = c.ReadScreen(ctx)          // negotiation, then the first screen
//	fmt.Print(c.Screen.Text())       // 24 lines of 80 columns
//	keys, err := tn3270.ParseKeys("logon ibmuser<enter>")
//	err = c.Play(ctx, keys, func(s *tn3270.Screen) error {
//		fmt.Print(s.Text()) // each screen the host answers with
//		return nil
//	})
//
// The telnet layer is package telnet (TN3270 is a use of its options).
// Screen.Apply interprets a record: the commands Write, Erase/Write,
// Erase/Write Alternate (the alternate size of a model 2 is its default
// 24x80), Erase All Unprotected, Read Buffer, Read Modified (All), and
// Write Structured Field (Read Partition Query is answered with
// QueryReply: Summary, Usable Area, Implicit Partition); the orders SF,
// SFE, SBA, SA, IC, RA, EUA, PT, GE and MF. Text is EBCDIC code page 037
// (golang.org/x/text's charmap). A record that cannot be applied is a
// *DataStreamError naming the byte offset and what was wrong; a record
// longer than Dialer.MaxRecord is refused.
//
// Screen.Text renders the screen: protected and unprotected fields as
// they are, non-display (password) fields and attribute positions blank.
// Screen.Input builds the inbound record an AID key sends (the AID, the
// cursor, each modified field as SBA + address + characters; Clear and PA
// keys send the AID alone), and AppendRecord shows its wire form.
package tn3270
