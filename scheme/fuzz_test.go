package scheme

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

// fuzzSchemes are the schemes the fuzz targets put in front of the
// fuzzed text, so that every view gets its share of the inputs.
var fuzzSchemes = []string{"ftp", "http", "https", "gopher", "mailto", "news", "nntp", "telnet", "rlogin", "tn3270",
	"wais", "file", "prospero", "mid", "cid", "urn", "afs", "x-test"}

var allModes = []urlkit.Mode{urlkit.RFC1738, urlkit.RFC1630, urlkit.RFC3986, urlkit.Lenient}

// seedViews adds every example of the tests as (scheme index, rest).
func seedViews(f *testing.F) {
	add := func(s string) {
		name, rest, ok := strings.Cut(s, ":")
		if !ok {
			return
		}
		for i, n := range fuzzSchemes {
			if n == name {
				f.Add(uint8(i), rest)
			}
		}
	}
	for _, tc := range viewExamples {
		add(tc.in)
	}
	for _, tc := range viewErrors {
		add(tc.in)
	}
	for _, tc := range explainGoldenSeeds {
		add(tc)
	}
}

// explainGoldenSeeds are extra inputs for the fuzz targets.
var explainGoldenSeeds = []string{
	"ftp://u:p@h:25/a%0D%0ADELE%20x/f.tar.gz",
	"gopher://h/1sel%09%09+a%00b%091%0D%0A+-1%0D%0Av%0D%0A.%0D%0A",
	"gopher://h/7%09%09?",
	"news:a%40b@host.dom",
	"wais://h/db/TEXT/1=abc;2=x%3By;",
	"prospero://h/n%00%00a;x=y?z",
	"file://h?q",
	"mailto:%22a%5C%22b%22@%5B1.2.3.4%5D",
}

// FuzzParseViews: for every mode and scheme, a URL that parses gives a
// view that builds a URL giving the same view back (lossless); a URL
// valid in the RFC1738 mode always has a view (the strict grammars and
// the views agree), and the URL the view builds is RFC1738-valid itself.
// Explain and Concerns never panic and report offsets inside the URL.
func FuzzParseViews(f *testing.F) {
	seedViews(f)
	f.Add(uint8(0), "//a%3Fb@h/x") // ftp: the user "a?b" was written back raw, and ftp://a?b@h/x reads as host "a" outside rfc1738
	f.Add(uint8(4), "%2F%2Fx@c")   // mailto: the address "//x@c" built mailto://x@c, an authority outside rfc1738
	f.Fuzz(func(t *testing.T, which uint8, rest string) {
		s := fuzzSchemes[int(which)%len(fuzzSchemes)] + ":" + rest
		for _, m := range allModes {
			var u urlkit.URL
			var err error
			if m == urlkit.Lenient {
				u, _, err = urlkit.ParseMode(s, urlkit.Lenient)
			} else {
				u, _, err = urlkit.ParseMode(s, m)
			}
			if err != nil {
				continue
			}
			checkView(t, &u, m)
		}
	})
}

// grammar1738 are the schemes with a production in RFC 1738 section 5,
// which the rfc1738 mode checks.
var grammar1738 = map[string]bool{"ftp": true, "http": true, "gopher": true, "mailto": true, "news": true,
	"nntp": true, "telnet": true, "wais": true, "file": true, "prospero": true}

func checkView(t *testing.T, u *urlkit.URL, m urlkit.Mode) {
	t.Helper()
	s := u.String()
	v, err := Parse(u, m)
	// AppendParts (the common views on the stack) agrees with Parse.
	parts, ok, perr := appendParts(nil, u, m)
	if fmt.Sprint(perr) != fmt.Sprint(err) || ok != (err == nil && v != nil) || ok && listingOf(parts) != listing(v) {
		t.Fatalf("%q (%v): AppendParts = %s, %v, %v; Parse = %#v, %v", s, m, listingOf(parts), ok, perr, v, err)
	}
	if m == urlkit.RFC1738 && err != nil && grammar1738[u.SchemeName()] {
		// The file view refuses a %2F inside a segment, which fsegment
		// allows: a file name cannot hold "/" (see parseFile).
		if !(u.SchemeName() == "file" && strings.Contains(err.Error(), "%2F in a file path")) {
			t.Fatalf("%q is valid in the rfc1738 mode but not a view: %v", s, err)
		}
	}
	if err == nil && v != nil {
		u2 := v.URL()
		v2, err := Parse(u2, m)
		if err != nil {
			t.Fatalf("%q (%v): view %#v builds %q, which is not a view: %v", s, m, v, u2.String(), err)
		}
		if !sameView(v, v2) {
			t.Fatalf("%q (%v): view\n%#v\nbuilds %q, whose view is\n%#v", s, m, v, u2.String(), v2)
		}
		// The listing is the view's values: the same for the same view.
		if p1, p2 := listing(v), listing(v2); p1 != p2 {
			t.Fatalf("%q (%v): the view lists %s, the view of the URL it builds %s", s, m, p1, p2)
		}
		// The view's URL, written out, reads back in the same mode as
		// the same view: no decoded byte is written where this mode
		// reads a delimiter ("?" in a user name ends the authority
		// outside RFC 1738; a path starting "//" reads as one).
		if u3, _, err := urlkit.ParseMode(u2.String(), m); err != nil {
			t.Fatalf("%q (%v): the view builds %q, which does not parse: %v", s, m, u2.String(), err)
		} else if v3, err := Parse(&u3, m); err != nil || !sameView(v, v3) {
			t.Fatalf("%q (%v): the view builds %q, whose view is %#v, %v", s, m, u2.String(), v3, err)
		}
		if m == urlkit.RFC1738 {
			s2 := u2.String()
			u3, err := urlkit.Parse(s2)
			if err != nil {
				t.Fatalf("%q: the view builds %q, invalid in the rfc1738 mode: %v", s, s2, err)
			}
			if v3, err := Parse(&u3, m); err != nil || !sameView(v, v3) {
				t.Fatalf("%q: the view builds %q, whose view is %#v, %v", s, s2, v3, err)
			}
		}
	}
	session := PlanOptions{Mode: m, Login: true, Term: "XTERM", Width: 80, Height: 24, LocalUser: "me"}
	for _, opts := range []PlanOptions{{Mode: m}, {Mode: m, Proxy: "proxy:3128"}, session} {
		plan, err := PlanURL(u, opts)
		if err != nil {
			continue
		}
		if len(plan.Steps) == 0 {
			t.Fatalf("PlanURL(%q) gave no steps", s)
		}
		for _, st := range plan.Steps {
			end := "\r\n"
			if plan.Scheme == "prospero" {
				end = "\n" // Prospero's lines end in LF (protocol version 5)
			}
			if st.Kind == Send && !st.Binary && !st.Answers && !st.Range && st.Request == nil && !strings.HasSuffix(st.Text, end) {
				t.Fatalf("PlanURL(%q): send %q has no line end", s, st.Text)
			}
			if st.Kind == Send && len(plan.Refused) > 0 {
				t.Fatalf("PlanURL(%q): a refused plan sends %q", s, st.Text)
			}
			// A session's login lines are one line each, and rlogin's
			// handshake has its four fields (issue 12: no value types a
			// second line or ends a field early).
			switch st.Op {
			case "LOGIN", "PASSWORD":
				body := strings.TrimRight(st.Text, "\r\n")
				if strings.ContainsAny(body, "\r\n\x00") {
					t.Fatalf("PlanURL(%q): %s %q is more than one line", s, st.Op, st.Text)
				}
			case "HANDSHAKE":
				if strings.Count(st.Text, "\x00") != 4 {
					t.Fatalf("PlanURL(%q): the rlogin handshake %q has not 4 NULs", s, st.Text)
				}
			}
		}
	}
	for _, c := range Concerns(u, nil) {
		if c.Offset < 0 || c.Offset > len(s) {
			t.Fatalf("Concerns(%q): offset %d outside the URL", s, c.Offset)
		}
	}
}

// FuzzBuildViews: views built from arbitrary decoded values (within each
// view's documented limits) turn into URLs valid in the RFC1738 mode that
// give the same view back: the views encode what must be encoded.
func FuzzBuildViews(f *testing.F) {
	f.Add(uint8(0), "a/b;c", "d e%f", "g?h#i")
	f.Add(uint8(1), "0", "sel\tx", "+view lang")
	f.Add(uint8(2), "John \"Doe\"", "x", "")
	f.Add(uint8(5), "db/x", "TEXT", "1=a;2=b;")
	f.Add(uint8(7), "/pros;name", "12", "OBJECT-VERSION=3")
	f.Fuzz(func(t *testing.T, which uint8, a, b, c string) {
		var v View
		switch which % 10 {
		case 0:
			ftp := &FTP{Host: "h.example", CWD: splitList(c), Name: a + b, Type: []string{"", "a", "i", "d"}[len(c)%4]}
			if len(a)%2 == 0 {
				ftp.User, ftp.HasUser = a, true
				if len(b)%2 == 0 {
					ftp.Password, ftp.HasPassword = b, true
				}
			}
			v = ftp
		case 1:
			typ := byte('1')
			if a != "" {
				typ = a[0]
			}
			g := &Gopher{Host: "h.example", Port: "7070", Type: typ, Selector: b}
			if len(a)%3 > 0 {
				g.Search, g.HasSearch = c, true
			}
			if len(a)%3 == 2 {
				g.Plus, g.HasPlus = a, true
			}
			if strings.ContainsAny(b, "\t") || g.HasSearch && strings.ContainsAny(c, "\t") {
				return // a selector and a search hold no TAB
			}
			v = g
		case 2:
			v = &Mailto{Address: quote822(a) + "@[" + literal822(b) + "]"}
		case 3:
			if isGroup(a) {
				v = &News{Group: a}
			} else {
				if a+b == "" {
					return // a message-id's unique part is not empty (RFC 1738 5, article)
				}
				v = &News{MessageID: a + b + "@host.example"}
			}
		case 4:
			if !isGroup(a) {
				return // RFC 1738's group has no escapes: other names have no rfc1738 URL
			}
			n := &NNTP{Host: "news.example", Group: a}
			if len(c)%2 == 0 {
				n.Article = strings.Repeat("0", len(c)%3) + strconv.Itoa(len(b))
			}
			v = n
		case 5:
			w := &WAIS{Host: "wais.example", Database: a}
			switch {
			case len(a)%2 == 0:
				w.WType, w.WPath, w.HasDocument = b, c, true
			case len(c)%2 == 0:
				w.Search, w.HasSearch = b, true
			}
			v = w
		case 6:
			if strings.Contains(a+b, "/") {
				return // a file name holds no "/"
			}
			v = &File{Path: "/" + a + "/" + b}
		case 7:
			if strings.ContainsRune(a+b+c, 0) {
				return // an hsoname, version and attributes hold no NUL
			}
			p := &Prospero{Host: "p.example", HSOName: a, Version: b, HasVersion: b != "", Fields: []Field{{c, a}}}
			if len(c)%2 == 1 {
				p.Attributes = []string{c}
				p.HasVersion = true
			}
			v = p
		case 8:
			tel := &Telnet{Session: []string{"telnet", "rlogin", "tn3270"}[len(c)%3], Host: "t.example"}
			if a != "" {
				tel.User, tel.HasUser = a, true
				if len(b)%2 == 0 {
					tel.Password, tel.HasPassword = b, true
				}
			}
			v = tel
		case 9:
			v = &MID{ID: quote822(a) + "@x.example"}
		}
		u := v.URL()
		s := u.String()
		back, err := urlkit.Parse(s)
		if err != nil {
			t.Fatalf("%#v builds %q, invalid in the rfc1738 mode: %v", v, s, err)
		}
		v2, err := Parse(&back, urlkit.RFC1738)
		if err != nil || !sameView(v, v2) {
			t.Fatalf("%#v builds %q, whose view is %#v, %v", v, s, v2, err)
		}
	})
}

// isGroup reports whether s matches RFC 1738's group production.
func isGroup(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	return strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.+_") == ""
}

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "|")
}

// quote822 makes an RFC 822 quoted-string of the ASCII bytes of s (no
// CR: a bare CR has no place in one).
func quote822(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80 || c == '\r':
			continue
		case c == '"' || c == '\\':
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	b.WriteByte('"')
	return b.String()
}

// literal822 makes the dtext of a domain-literal from s.
func literal822(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80 || c == '\r':
			continue
		case c == '[' || c == ']' || c == '\\':
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// FuzzGopherPlus: a classified Gopher+ string prints as a string that
// classifies the same.
func FuzzGopherPlus(f *testing.F) {
	for _, s := range []string{"+", "?", "!", "$", "!+ABSTRACT +SMELL", "+application/postscript Es_ES",
		"+\t1\r\n+-1\r\nv1\r\nv2\r\n.\r\n", "+v l\t1\r\n+-1\r\n.\r\n", "+ ", "!a  b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parseGopherPlus(s)
		if err != nil {
			return
		}
		q, err := parseGopherPlus(p.String())
		if err != nil || !reflect.DeepEqual(p, q) {
			t.Fatalf("%q: %#v prints %q, which reads %#v, %v", s, p, p.String(), q, err)
		}
	})
}

// FuzzAddrSpec: the allocation-free path of checkAddrSpec accepts an
// address only when the general one accepts it as written, and takes
// every address the general one accepts that needs no decoding or
// encoding and is all of the URL after its scheme.
func FuzzAddrSpec(f *testing.F) {
	for _, s := range []string{"joe@example.com", "joe.bloggs@example.com", `"a b"@x`, `%22a%20b%22@x`, "a%40b@c",
		"j@[1.2.3.4]", "j@%5B1.2.3.4%5D", "a@b#frag", "a@b?subject=hi", "a@b,c@d", "@b", "a@", "a..b@c", "a@b.",
		"~user@h", "a b@c", "a@b%", explainGoldenSeeds[len(explainGoldenSeeds)-1][len("mailto:"):]} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		for _, name := range []string{"mailto", "MailTo", "mid", "cid"} {
			for _, m := range allModes {
				u, _, err := urlkit.ParseMode(name+":"+raw, m)
				if err != nil {
					continue
				}
				ssp := u.SchemeSpecificPart()
				addr, err := checkEncodedAddrSpec(&u, ssp, layoutOf(&u).ssp)
				plain := plainAddrSpec(&u, ssp)
				if plain && (err != nil || addr != ssp) {
					t.Fatalf("%s (%s): the plain path accepts %q; the general one gives %q, %v", u.String(), m, ssp, addr, err)
				}
				if !plain && err == nil && addr == ssp && !strings.Contains(ssp, "%") && keepXchar.Escape(ssp) == ssp &&
					u.String() == u.Scheme+":"+ssp {
					t.Fatalf("%s (%s): the general path accepts %q as written; the plain one does not", u.String(), m, ssp)
				}
			}
		}
	})
}
