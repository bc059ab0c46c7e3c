package prospero

import (
	"slices"
	"strings"
	"testing"
)

// FuzzParseReply: the reply parser never panics, and every link it
// returns survives a round trip through Quote and Tokens.
func FuzzParseReply(f *testing.F) {
	for _, s := range []string{
		"LINK  L FILE it'''s here.txt' INTERNET-D 127.0.0.1 ASCII AFTP'/pub/it''s here.txt' 0\nATTRIBUTE OBJECT INTRINSIC SIZE SEQUENCE 7' bytes'\n",
		"ATTRIBUTE OBJECT INTRINSIC CONTENTS SEQUENCE DATA hello' prospero\n'\n",
		"FAILURE NOT-A-DIRECTORY\n", "ERROR Unknown message: garbage here\n", "NONE-FOUND\r\n",
		"ATTRIBUTE>> LINK FIELD FILTER DIRECTORY CLIENT POST PREDEFINED x\n", "LINK 'unterminated\n", "UNRESOLVED a/b\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		r, err := ParseReply(msg)
		if err != nil {
			return
		}
		r.Err()
		for _, l := range r.Links {
			fields := []string{"LINK", l.Type, l.Target, l.Name, l.HostType, l.Host, l.HsonameType, l.Hsoname, l.Version}
			var line []string
			for _, fl := range fields {
				line = append(line, Quote(fl))
			}
			again, err := ParseReply([]byte(strings.Join(line, " ") + "\n"))
			if err != nil || len(again.Links) != 1 {
				t.Fatalf("link %+v does not survive quoting: %v", l, err)
			}
			a := again.Links[0]
			if a.Name != l.Name || a.Hsoname != l.Hsoname || a.Host != l.Host || a.Target != l.Target {
				t.Fatalf("link %+v -> %+v", l, a)
			}
		}
	})
}

// FuzzTokens: Tokens inverts Quote for any tokens without NUL, and never
// panics on any line.
func FuzzTokens(f *testing.F) {
	f.Add("AFTP'/pub/x y'", "it's", "")
	f.Add("a''b", "'", "\n")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		Tokens(a + " " + b + c)
		in := []string{a, b, c}
		line := Quote(a) + " \t" + Quote(b) + " " + Quote(c)
		got, err := Tokens(line)
		if err != nil || !slices.Equal(got, in) {
			t.Fatalf("%q -> %q, %v", in, got, err)
		}
	})
}

// FuzzParseHeader: the ARDP header decoder never panics; a header it
// accepts keeps its fields through AppendHeader.
func FuzzParseHeader(f *testing.F) {
	f.Add([]byte{3, 0x10, 0x92, 'V'})
	f.Add([]byte{7, 0x10, 0x92, 0, 1, 0, 2, 'x'})
	f.Add([]byte{12, 0x10, 0x92, 0, 16, 0, 0, 0, 1, 0, 0, 0x80, 'x'})
	f.Add([]byte{0xc3, 0, 0})
	f.Fuzz(func(t *testing.T, p []byte) {
		h, data, err := ParseHeader(p)
		if err != nil {
			return
		}
		if h.Len+len(data) != len(p) {
			t.Fatalf("header %d + data %d != %d", h.Len, len(data), len(p))
		}
		b := AppendHeader(nil, h.ConnID, h.Seq, h.Total, h.RcvdThru)
		h2, rest, err := ParseHeader(append(b, data...))
		if err != nil || h2.ConnID != h.ConnID || h2.Seq != h.Seq || h2.Total != h.Total || h2.RcvdThru != h.RcvdThru || string(rest) != string(data) {
			t.Fatalf("%+v -> % x -> %+v, %v", h, b, h2, err)
		}
	})
}

// FuzzListRequest: any hsoname is either refused or sent so that the
// server's tokenizer gets it back exactly, on one line.
func FuzzListRequest(f *testing.F) {
	f.Add("AFTP/pub/it's here.txt", "comp")
	f.Add("a\nb", "")
	f.Fuzz(func(t *testing.T, hsoname, comp string) {
		var c Client
		req, err := c.ListRequest(hsoname, []string{comp}, nil)
		if err != nil {
			if strings.ContainsAny(hsoname+comp, "\r\n\x00") || len(hsoname) > MaxName || len(comp) > MaxName {
				return
			}
			t.Fatalf("%q, %q refused: %v", hsoname, comp, err)
		}
		lines := strings.Split(strings.TrimSuffix(string(req), "\n"), "\n")
		if len(lines) != 4 {
			t.Fatalf("request %q has %d lines", req, len(lines))
		}
		dir, _ := Tokens(lines[2])
		list, _ := Tokens(lines[3])
		if len(dir) != 3 || dir[2] != hsoname || len(list) != 4 || list[3] != comp {
			t.Fatalf("%q -> %q %q", hsoname, dir, list)
		}
	})
}
