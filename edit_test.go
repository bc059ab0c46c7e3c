package urlkit

import (
	"errors"
	"strings"
	"testing"
)

func TestSetters(t *testing.T) {
	u, _, err := ParseMode("http://example.com/a?x=1#f", RFC3986)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name string
		do   func(*URL) error
		want string
	}{
		{"scheme", func(u *URL) error { return u.SetScheme("https") }, "https://example.com/a?x=1#f"},
		{"user", func(u *URL) error { return u.SetUser("me@home:x") }, "https://me%40home%3Ax@example.com/a?x=1#f"},
		{"password", func(u *URL) error { return u.SetPassword("p/w") }, "https://me%40home%3Ax:p%2Fw@example.com/a?x=1#f"},
		{"host", func(u *URL) error { return u.SetHost("b\xc3\xbccher.example") }, "https://me%40home%3Ax:p%2Fw@xn--bcher-kva.example/a?x=1#f"},
		{"ipv6", func(u *URL) error { return u.SetHost("::1") }, "https://me%40home%3Ax:p%2Fw@[::1]/a?x=1#f"},
		{"port", func(u *URL) error { return u.SetPort(8443) }, "https://me%40home%3Ax:p%2Fw@[::1]:8443/a?x=1#f"},
		{"path", func(u *URL) error { return u.SetPath("dir/a b#c") }, "https://me%40home%3Ax:p%2Fw@[::1]:8443/dir/a%20b%23c?x=1#f"},
		{"query", func(u *URL) error {
			q := ParseQuery(u.Query, QuerySyntax{PlusAsSpace: true})
			q.Set("y", "a b&c")
			return u.SetQuery(q)
		}, "https://me%40home%3Ax:p%2Fw@[::1]:8443/dir/a%20b%23c?x=1&y=a+b%26c#f"},
		{"fragment", func(u *URL) error { return u.SetFragment("sec 1#2") }, "https://me%40home%3Ax:p%2Fw@[::1]:8443/dir/a%20b%23c?x=1&y=a+b%26c#sec%201%232"},
	}
	for _, s := range steps {
		if err := s.do(&u); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got := u.String(); got != s.want {
			t.Fatalf("%s: %s, want %s", s.name, got, s.want)
		}
	}
}

func TestSetHostRefused(t *testing.T) {
	// Issue 14: a host with CR LF or a space is refused, not serialized.
	for _, h := range []string{"a\r\nHost: evil", "a b", "a/b", "a?b", "a#b", "user@a", "a:80", "[::1", "a%41", "a\\b", "[fe80::1%25eth0]"} {
		u, _, _ := ParseMode("http://ok.example/", RFC3986)
		err := u.SetHost(h)
		if err == nil {
			t.Errorf("SetHost(%q) accepted: %s", h, u.String())
			continue
		}
		if !errors.Is(err, ErrBadHost) {
			t.Errorf("SetHost(%q): %v, want ErrBadHost", h, err)
		}
		if u.String() != "http://ok.example/" {
			t.Errorf("SetHost(%q) changed the URL on error: %s", h, u.String())
		}
	}
}

func TestSetFromScratch(t *testing.T) {
	var u URL
	for _, err := range []error{u.SetScheme("ws"), u.SetHost("chat.example"), u.SetPort(8080), u.SetPath("/room 1")} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := u.String(); got != "ws://chat.example:8080/room%201" {
		t.Fatalf("built %s", got)
	}
	if err := u.SetScheme("1ws"); !errors.Is(err, ErrBadScheme) {
		t.Errorf("scheme starting with a digit: %v", err)
	}
	var rel URL
	if err := rel.SetRawPath("a:b"); err == nil {
		t.Errorf("relative path whose first segment looks like a scheme accepted: %s", rel.String())
	}
	if err := rel.SetPort(80); err == nil {
		t.Errorf("port without a host accepted: %s", rel.String())
	}
}

func TestJoinPath(t *testing.T) {
	for _, tc := range []struct {
		base string
		elem []string
		want string
	}{
		{"http://h/a/b", []string{"c", "d e"}, "http://h/a/b/c/d%20e"},
		{"http://h/a/", []string{"/c/", "../x/"}, "http://h/a/x/"},
		{"http://h", []string{"x"}, "http://h/x"},
		{"http://h/a?q#f", []string{"..", ".."}, "http://h/?q#f"},
	} {
		u, _, _ := ParseMode(tc.base, RFC3986)
		v, err := u.JoinPath(tc.elem...)
		if err != nil || v.String() != tc.want {
			t.Errorf("JoinPath(%s, %q) = %s, %v; want %s", tc.base, tc.elem, v.String(), err, tc.want)
		}
	}
}

// TestResolveReference: the root's RFC 3986 resolution, net/url's shape:
// a new URL, the receiver and the reference untouched.
func TestResolveReference(t *testing.T) {
	base, _, _ := ParseMode("http://a/b/c/d;p?q", RFC3986)
	for _, tc := range []struct{ ref, want string }{
		{"../g", "http://a/b/g"}, // RFC 3986 5.4.1
		{"g;x?y#s", "http://a/b/c/g;x?y#s"},
		{"", "http://a/b/c/d;p?q"},   // 5.4.1: the empty reference
		{"../../../g", "http://a/g"}, // 5.4.2: ".." above the root
		{"http:g", "http:g"},         // strict
	} {
		ref, _, _ := ParseReference(tc.ref, RFC3986)
		if got := base.ResolveReference(&ref).String(); got != tc.want {
			t.Errorf("ResolveReference(%q) = %s, want %s", tc.ref, got, tc.want)
		}
	}
	if base.String() != "http://a/b/c/d;p?q" {
		t.Errorf("base changed: %s", base.String())
	}
}

func TestNetURLEmptyFragment(t *testing.T) {
	for _, s := range []string{"http://h/a#", "http://u@h:1/a?q#", "http://h/a?#", "mailto:x@y#", "http://h/a#f"} {
		u, _, err := ParseMode(s, RFC3986)
		if err != nil {
			t.Fatal(err)
		}
		n := u.NetURL()
		if got := n.String(); got != s {
			t.Errorf("NetURL(%s).String() = %s", s, got)
		}
		back, err := FromNetURL(n)
		if err != nil || back.String() != s {
			t.Errorf("FromNetURL(NetURL(%s)) = %s, %v", s, back.String(), err)
		}
	}
	u, _ := Parse("http://h/a?q#")
	if n := u.NetURL(); n.Host != "h" || n.Path != "/a" {
		t.Errorf("fields of NetURL with an empty fragment: %#v", n)
	}
}

func TestDefaultPortToday(t *testing.T) {
	for s, p := range map[string]int{"ws": 80, "WSS": 443, "imap": 143, "ldap": 389, "http": 80, "gopher": 70, "nope": 0, "": 0, "averyveryverylongscheme": 0} {
		if got := DefaultPort(s); got != p {
			t.Errorf("DefaultPort(%q) = %d, want %d", s, got, p)
		}
	}
	if n := testing.AllocsPerRun(100, func() { DefaultPort("WSS") }); n != 0 {
		t.Errorf("DefaultPort allocates %v times", n)
	}
}

// FuzzSetters: whatever value a setter is given, it either refuses it
// (leaving the URL as it was) or leaves a URL whose text parses back, in
// the RFC3986 mode, into the same fields; a decoded value set reads back
// decoded as given. And Parse (the RFC 1738 mode) accepts what it accepted
// before, as long as it keeps a scheme (SetScheme("") makes a relative
// reference, which Parse does not take) and the value is not set with a
// Raw form (which takes any text RFC 3986 allows), for the schemes without a production of their own in RFC 1738
// section 5 and hosts that are not IPv6 literals (which RFC 1738 cannot
// write); the others have rules no encoding satisfies (no user name in an
// http URL, a newsgroup name without escapes), which Check reports.
func FuzzSetters(f *testing.F) {
	for _, s := range []string{"http://example.com/a?x=1#f", "ftp://u:p@h/%2Fetc", "mailto:a@b", "//h/p", "rel/p?q", "", "news:comp.x", "x-foo://h/p?q#f", "urn:isbn:0451450523"} {
		f.Add(s, uint8(0), "a b\r\n%/?#@[]:")
		f.Add(s, uint8(3), "::1")
	}
	f.Fuzz(func(t *testing.T, s string, which uint8, value string) {
		u, _, err := ParseReference(s, RFC3986)
		if err != nil {
			return
		}
		before := u
		var setErr error
		switch which % 9 {
		case 0:
			setErr = u.SetScheme(value)
		case 1:
			setErr = u.SetUser(value)
		case 2:
			setErr = u.SetPassword(value)
		case 3:
			setErr = u.SetHost(value)
		case 4:
			setErr = u.SetPort(len(value) * 997)
		case 5:
			setErr = u.SetPath(value)
		case 6:
			setErr = u.SetRawQuery(value)
		case 7:
			setErr = u.SetFragment(value)
		case 8:
			var q Query
			q.Add(value, value)
			setErr = u.SetQuery(q)
		}
		if setErr != nil {
			if !u.SameComponents(&before) {
				t.Fatalf("refused set changed %q into %q", before.String(), u.String())
			}
			return
		}
		text := u.String()
		if _, err := Parse(before.String()); err == nil && which%9 != 6 && u.Scheme != "" && lookupScheme(before.Scheme) == nil && lookupScheme(u.Scheme) == nil && !strings.HasPrefix(u.Host, "[") {
			if _, err := Parse(text); err != nil {
				t.Fatalf("set %d %q on %q gave %q, which Parse refuses: %v", which%9, value, s, text, err)
			}
		}
		back, _, err := ParseReference(text, RFC3986)
		if err != nil || !back.SameComponents(&u) {
			t.Fatalf("set %d %q on %q gave %q, which parses as %+v, %v", which%9, value, s, text, back, err)
		}
		switch which % 9 {
		case 1:
			if got, _ := u.DecodedUser(); got != value {
				t.Fatalf("user %q reads back %q", value, got)
			}
		case 7:
			if got, err := PathUnescape(u.Fragment); err != nil || got != value {
				t.Fatalf("fragment %q reads back %q", value, got)
			}
		case 5:
			if got, _ := PathUnescape(u.Path); (strings.HasPrefix(value, "/") || !u.HasAuthority) && got != value {
				t.Fatalf("path %q reads back %q", value, got)
			}
		case 8:
			q := ParseQuery(u.Query, QuerySyntax{})
			if v, ok := q.Get(value); value != "" && (!ok || v != value) {
				t.Fatalf("query pair %q reads back %q, %v", value, v, ok)
			}
		}
	})
}
