package registry

import (
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	for _, tc := range []struct {
		name string
		port int
		ok   bool
	}{
		{"ftp", 21, true}, {"FTP", 21, true}, {"Gopher", 70, true}, {"prospero", 1525, true},
		{"mailserver", 0, true}, {"Z39.50S", 210, true}, {"gopher+", 0, false}, {"", 0, false}, {"verylongname", 0, false},
	} {
		r := Lookup(tc.name)
		if (r != nil) != tc.ok || r != nil && r.Port != tc.port {
			t.Errorf("Lookup(%q) = %+v", tc.name, r)
		}
	}
	if n := testing.AllocsPerRun(100, func() { Lookup("Gopher") }); n != 0 {
		t.Errorf("Lookup allocates %v times", n)
	}
}

func TestSplitFTP(t *testing.T) {
	for _, tc := range []struct {
		path                string
		nameAt, end, typeAt int
		semicolon           int
		segs                []string
	}{
		// RFC 1738 3.2.2 and section 5 (ftpurl).
		{"%2Fetc/motd", 7, 11, -1, -1, []string{"%2Fetc", "motd"}},
		{"/etc/motd", 5, 9, -1, -1, []string{"", "etc", "motd"}},
		{"pub/www/doc;type=d", 8, 11, 11, -1, []string{"pub", "www", "doc"}},
		{"f;TYPE=I", 0, 1, 1, -1, []string{"f"}},
		{"a;b/c;type=a", 4, 5, 5, 1, []string{"a;b", "c"}},
		{"a;type=i/b", 9, 10, -1, 1, []string{"a;type=i", "b"}},
		{"", 0, 0, -1, -1, []string{""}},
		{"pub/", 4, 4, -1, -1, []string{"pub", ""}},
	} {
		f := SplitFTP(tc.path)
		if f.NameAt != tc.nameAt || f.End != tc.end || f.TypeAt != tc.typeAt || f.Semicolon != tc.semicolon {
			t.Errorf("SplitFTP(%q) = %+v", tc.path, f)
		}
		var segs []string
		for at := 0; ; {
			s, e, next, last := f.NextSegment(tc.path, at)
			segs = append(segs, tc.path[s:e])
			if last {
				break
			}
			at = next
		}
		if strings.Join(segs, "|") != strings.Join(tc.segs, "|") {
			t.Errorf("SplitFTP(%q) segments %q, want %q", tc.path, segs, tc.segs)
		}
	}
	if n := testing.AllocsPerRun(100, func() { ftpSink = SplitFTP("pub/www/doc;type=d") }); n != 0 {
		t.Errorf("SplitFTP allocates %v times", n)
	}
}

func TestSplitGopher(t *testing.T) {
	for _, tc := range []struct {
		path                            string
		typeEnd, selEnd, sAt, sEnd, pAt int
	}{
		// RFC 1738 3.4; draft-ietf-uri-url-03's gopher+ example.
		{"", 0, 0, -1, -1, -1},
		{"0a_gopher_selector%09%09!", 1, 18, 21, 21, 24},
		{"7sel%09a%20b", 1, 4, 7, 12, -1},
		{"%30sel", 3, 6, -1, -1, -1},
		{"1%09%09+%091%0D%0A", 1, 1, 4, 4, 7},
	} {
		g := SplitGopher(tc.path)
		if g.TypeEnd != tc.typeEnd || g.SelectorEnd != tc.selEnd || g.SearchAt != tc.sAt || g.SearchEnd != tc.sEnd || g.PlusAt != tc.pAt {
			t.Errorf("SplitGopher(%q) = %+v", tc.path, g)
		}
	}
}

func TestTrimFloor(t *testing.T) {
	for in, want := range map[string]int{
		"news:*":     6,
		"news:*.":    6,
		"news:comp.": 0,
		"gopher://host/0a_gopher_selector%09%09!": 39,
		"gopher://host/0sel.":                     0,
		"http://h/a.":                             0,
		"nourl":                                   0,
	} {
		if got := TrimFloor(in); got != want {
			t.Errorf("TrimFloor(%q) = %d, want %d", in, got, want)
		}
	}
}

// FuzzSplit: the splits of any url-path are in range and in order, and
// the segments of an FTP path rejoin into its part before ";type=".
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"", "a/b;type=i", "%2F/x;y", "0sel%09s%09+x", "%3", ";type=", "a//b/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		ft := SplitFTP(p)
		if ft.NameAt < 0 || ft.NameAt > ft.End || ft.End > len(p) || ft.TypeAt >= 0 && ft.TypeAt != ft.End {
			t.Fatalf("SplitFTP(%q) = %+v", p, ft)
		}
		var segs []string
		for at := 0; ; {
			s, e, next, last := ft.NextSegment(p, at)
			segs = append(segs, p[s:e])
			if last {
				break
			}
			if next <= at {
				t.Fatalf("SplitFTP(%q): no progress at %d", p, at)
			}
			at = next
		}
		if strings.Join(segs, "/") != p[:ft.End] {
			t.Fatalf("SplitFTP(%q): segments %q", p, segs)
		}
		g := SplitGopher(p)
		if g.TypeEnd > g.SelectorEnd || g.SelectorEnd > len(p) ||
			g.SearchAt >= 0 && (g.SearchAt != g.SelectorEnd+3 || g.SearchEnd < g.SearchAt || g.SearchEnd > len(p)) ||
			g.PlusAt >= 0 && g.PlusAt != g.SearchEnd+3 {
			t.Fatalf("SplitGopher(%q) = %+v", p, g)
		}
	})
}

// Lookup runs once per URL the strict check parses.
func BenchmarkLookup(b *testing.B) {
	for _, name := range []string{"https", "http", "ftp", "HTTPS", "gopher", "mailserver"} {
		b.Run(name, func(b *testing.B) {
			for range b.N {
				if Lookup(name) == nil {
					b.Fatal(name)
				}
			}
		})
	}
}

// ftpSink keeps SplitFTP's result alive, so that the allocation count is
// of a call the compiler cannot drop.
var ftpSink FTPPath
