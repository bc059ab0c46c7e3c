package fetch

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/urlkit/urlkit/client/gopher"
	"github.com/urlkit/urlkit/internal/percent"
	"github.com/urlkit/urlkit/internal/safetext"
	"github.com/urlkit/urlkit/listing"
	"github.com/urlkit/urlkit/scheme"
)

// Render copies resp's Body to w in a form for people, reading it to the
// end (the caller still closes it). It reads resp's ContentType and
// DotStuffed as the standard openers set them:
//
//   - a Gopher menu ("application/gopher-menu") becomes one line per item: informational lines as
//     indented text, the others as "[type] name <URL>" where URL is the
//     gopher: URL of the item (the URL itself for "h" items whose
//     selector is "URL:...", a telnet: URL for types 8 and T);
//   - Gopher+ attribute blocks become "+NAME: value" lines with the
//     block's lines indented below;
//   - Gopher text loses its dot-stuffing and its final "." line, and its
//     line ends become LF;
//   - anything else (an HTTP, FTP or file body, a news article) is
//     copied as text, its CR LF line ends made LF.
//
// An error reading or parsing the Body of a Response that Fetch returned
// (or a copy of it with another Body, such as a progress meter's reader)
// is an *Error for its URL (a malformed menu line is ErrProtocol); an
// error writing to w is returned as it is.
//
// What the server sent is made safe for a terminal in every form: control
// bytes, ESC and OSC sequences are shown escaped (safetext.Visible), in
// text all but LF and TAB. Bytes as sent are get without --render.
func Render(w io.Writer, resp *Response) error {
	ew := &renderWriter{w: w}
	err := renderBody(ew, resp)
	if b := resp.fetched; b != nil && err != nil && (ew.err == nil || err != ew.err) {
		return b.req.wrap(b.ctx, "read", err)
	}
	return err
}

func renderBody(w io.Writer, resp *Response) error {
	switch {
	case resp.ContentType == gopherMenuType:
		return renderMenu(w, resp.Body)
	case resp.ContentType == gopherAttributesType:
		return renderAttributes(w, resp.Body)
	case resp.DotStuffed:
		return copyVisibleText(w, gopher.NewTextReader(resp.Body))
	}
	return copyVisibleText(w, resp.Body)
}

// renderWriter remembers the first write error, to tell it from an error
// of the Body.
type renderWriter struct {
	w   io.Writer
	err error
}

func (r *renderWriter) Write(p []byte) (int, error) {
	n, err := r.w.Write(p)
	if err != nil && r.err == nil {
		r.err = err
	}
	return n, err
}

func renderMenu(w io.Writer, r io.Reader) error {
	return listing.WriteText(w, menuEntries(r))
}

// menuEntries is the listing of the Gopher menu r, read as it is asked
// for; a malformed line ends it with an error.
func menuEntries(r io.Reader) *listing.List {
	m := gopher.NewMenuReader(r, 0)
	return listing.New(listing.Header{Format: listing.Gopher, Count: -1}, func(e *listing.Entry) (bool, error) {
		if !m.Next() {
			return false, m.Err()
		}
		it := m.Item()
		e.Name = it.Display
		e.Gopher = listing.GopherItem{Type: byte(it.Type), Selector: it.Selector, Host: it.Host, Port: it.Port}
		switch {
		case it.Type == gopher.TypeInfo || it.Type == gopher.TypeError:
			e.Kind = "other"
			return true, nil
		case it.Type.IsMenu():
			e.Kind = "dir"
		case it.Type == gopher.TypeTelnet || it.Type == gopher.TypeTN3270:
			e.Kind = "other"
		default:
			e.Kind = "file"
		}
		e.URL = itemURL(it)
		return true, nil
	})
}

// itemURL returns the URL of a Gopher menu item (RFC 1738 section 3.4):
// gopher://host[:port]/TYPE SELECTOR, the selector escaped as package
// scheme's Gopher view escapes it, the port left out when it is 70. An "h" item whose selector is "URL:..." (the common
// convention for links out of Gopher) gives that URL; telnet items (8, T)
// give telnet://[selector@]host[:port]/.
func itemURL(it gopher.Item) string {
	host := it.Host
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if it.Type == gopher.TypeHTML {
		if u, ok := strings.CutPrefix(it.Selector, "URL:"); ok {
			return u
		}
	}
	switch it.Type {
	case gopher.TypeTelnet, gopher.TypeTN3270:
		scheme := "telnet"
		if it.Type == gopher.TypeTN3270 {
			scheme = "tn3270"
		}
		s := scheme + "://"
		if it.Selector != "" {
			s += percent.Escape(it.Selector, percent.Userinfo, false) + "@"
		}
		s += host
		if it.Port != "" && it.Port != "23" {
			s += ":" + it.Port
		}
		return s + "/"
	}
	v := scheme.Gopher{Host: host, Type: byte(it.Type), Selector: it.Selector}
	if it.Port != "70" {
		v.Port = it.Port
	}
	return v.URL().String()
}

func renderAttributes(w io.Writer, r io.Reader) error {
	blocks, err := gopher.ParseAttributes(r)
	bw := bufio.NewWriter(w)
	for _, b := range blocks {
		if b.Value != "" {
			fmt.Fprintf(bw, "+%s: %s\n", safetext.Visible(b.Name), safetext.VisibleText(b.Value))
		} else {
			fmt.Fprintf(bw, "+%s:\n", safetext.Visible(b.Name))
		}
		for _, l := range b.Lines {
			fmt.Fprintf(bw, "    %s\n", safetext.VisibleText(l))
		}
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return err
}

// copyVisibleText copies text from r to w made safe for a terminal, line
// by line (a long line in pieces that end on a character boundary).
func copyVisibleText(w io.Writer, r io.Reader) error {
	br := bufio.NewReaderSize(r, 32<<10)
	var carry []byte
	for {
		chunk, err := br.ReadSlice('\n')
		piece := append(carry, chunk...)
		carry = carry[:0]
		if err == bufio.ErrBufferFull {
			// Keep an incomplete UTF-8 sequence, or a CR that a LF may
			// follow, for the next piece.
			cut := len(piece)
			if piece[cut-1] == '\r' {
				cut--
			}
			for k := 1; k < utf8.UTFMax && k <= len(piece); k++ {
				if utf8.RuneStart(piece[len(piece)-k]) {
					if !utf8.FullRune(piece[len(piece)-k:]) {
						cut = len(piece) - k
					}
					break
				}
			}
			carry = append(carry, piece[cut:]...)
			piece = piece[:cut]
		}
		if n := len(piece); n >= 2 && piece[n-1] == '\n' && piece[n-2] == '\r' {
			piece = append(piece[:n-2], '\n') // a line end, not a control byte to show
		}
		if _, werr := io.WriteString(w, safetext.VisibleText(string(piece))); werr != nil {
			return werr
		}
		switch {
		case err == io.EOF:
			if len(carry) > 0 {
				_, werr := io.WriteString(w, safetext.VisibleText(string(carry)))
				return werr
			}
			return nil
		case err != nil && err != bufio.ErrBufferFull:
			return err
		}
	}
}
