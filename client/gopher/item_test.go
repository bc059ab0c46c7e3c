package gopher

import (
	"errors"
	"testing"
)

func TestParseItem(t *testing.T) {
	tests := []struct {
		name string
		line string
		want Item
		err  error
	}{
		// RFC 1436 section 3.8 and the servers in the test set.
		{"rfc text", "0About internet Gopher\tStuff:About us\trawBits.micro.umn.edu\t70\r\n",
			Item{Type: '0', Display: "About internet Gopher", Selector: "Stuff:About us", Host: "rawBits.micro.umn.edu", Port: "70"}, nil},
		{"pygopherd, gopher+ flag", "0hello\t/hello.txt\t127.0.0.1\t7070\t+\r\n",
			Item{Type: '0', Display: "hello", Selector: "/hello.txt", Host: "127.0.0.1", Port: "7070", Plus: "+"}, nil},
		{"gophernicus info", "iTest gophernicus server\t\tnull.host\t1\r\n",
			Item{Type: 'i', Display: "Test gophernicus server", Host: "null.host", Port: "1"}, nil},
		{"gophernicus #040 selector", "1sub dir                               2026-Nov-21 23:20   --------\t/docs/sub#040dir/\t127.0.0.1\t7071",
			Item{Type: '1', Display: "sub dir                               2026-Nov-21 23:20   --------", Selector: "/docs/sub#040dir/", Host: "127.0.0.1", Port: "7071"}, nil},
		{"html URL: link", "hHTML link\tURL:http://127.0.0.1/\t127.0.0.1\t7070",
			Item{Type: 'h', Display: "HTML link", Selector: "URL:http://127.0.0.1/", Host: "127.0.0.1", Port: "7070"}, nil},
		{"ask item", "1Application\t/ask_script\tlocalhost\t70\t?",
			Item{Type: '1', Display: "Application", Selector: "/ask_script", Host: "localhost", Port: "70", Plus: "?"}, nil},
		{"LF only", "0a\tb\tc\t70\n", Item{Type: '0', Display: "a", Selector: "b", Host: "c", Port: "70"}, nil},
		{"no line end", "0a\tb\tc\t70", Item{Type: '0', Display: "a", Selector: "b", Host: "c", Port: "70"}, nil},
		{"several line ends", "0a\tb\tc\t70\r\r\n", Item{Type: '0', Display: "a", Selector: "b", Host: "c", Port: "70"}, nil},
		// Tolerated damage.
		{"display only", "iJust text\n", Item{Type: 'i', Display: "Just text"}, nil},
		{"type only", "i", Item{Type: 'i'}, nil},
		{"no port", "0a\tb\tc", Item{Type: '0', Display: "a", Selector: "b", Host: "c"}, nil},
		{"empty selector", "8Telnet\t\t127.0.0.1\t2323", Item{Type: '8', Display: "Telnet", Host: "127.0.0.1", Port: "2323"}, nil},
		{"extra fields", "0a\tb\tc\t70\t+\textra\tmore", Item{Type: '0', Display: "a", Selector: "b", Host: "c", Port: "70", Plus: "+\textra\tmore"}, nil},
		{"CR before an empty fifth field", "0\t\t\t70\r\t", Item{Type: '0', Port: "70"}, nil},
		{"odd port kept", "ix\tfake\t(NULL)\t0", Item{Type: 'i', Display: "x", Selector: "fake", Host: "(NULL)", Port: "0"}, nil},
		{"unknown type", "Zz\ts\th\t1", Item{Type: 'Z', Display: "z", Selector: "s", Host: "h", Port: "1"}, nil},
		// Not an item.
		{"empty", "", Item{}, ErrMalformedItem},
		{"CRLF only", "\r\n", Item{}, ErrMalformedItem},
		{"starts with TAB", "\tsel\thost\t70", Item{}, ErrMalformedItem},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseItem(tt.line)
			if !errors.Is(err, tt.err) || (tt.err == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if got != tt.want {
				t.Fatalf("ParseItem(%q) =\n %#v\nwant\n %#v", tt.line, got, tt.want)
			}
			if err == nil {
				again, err := ParseItem(got.String())
				if err != nil || again != got {
					t.Errorf("round trip via %q: %#v, %v", got.String(), again, err)
				}
			}
		})
	}
}

func TestItemString(t *testing.T) {
	for _, line := range []string{
		"0hello\t/hello.txt\t127.0.0.1\t7070\t+",
		"iTest gophernicus server\t\tnull.host\t1",
		"7Search\t/cgi-bin/search\t127.0.0.1\t7071",
		"1\t\t\t",
	} {
		it, err := ParseItem(line)
		if err != nil {
			t.Fatal(err)
		}
		if it.String() != line {
			t.Errorf("String() = %q, want %q", it.String(), line)
		}
	}
	if got := (Item{Type: 'i', Display: "x"}).String(); got != "ix\t\t\t" {
		t.Errorf("missing fields rendered as %q", got)
	}
}

func TestItemAddr(t *testing.T) {
	for it, want := range map[Item]string{
		{Host: "127.0.0.1", Port: "70"}: "127.0.0.1:70",
		{Host: "::1", Port: "7070"}:     "[::1]:7070",
	} {
		if got := it.Addr(); got != want {
			t.Errorf("Addr() = %q, want %q", got, want)
		}
	}
}

func TestItemIsPlus(t *testing.T) {
	for plus, want := range map[string]bool{"": false, "+": true, "?": true, "+\tx": true, "x": false} {
		if got := (Item{Plus: plus}).IsPlus(); got != want {
			t.Errorf("IsPlus(%q) = %v", plus, got)
		}
	}
}

func TestItemType(t *testing.T) {
	tests := []struct {
		t              ItemType
		name           string
		binary, isMenu bool
	}{
		{TypeText, "text", false, false},
		{TypeMenu, "menu", false, true},
		{TypeSearch, "search", false, true},
		{TypeBinary, "binary", true, false},
		{TypeDOS, "dos", true, false},
		{TypeBinHex, "binhex", false, false},
		{TypeUUEncoded, "uuencoded", false, false},
		{TypeGIF, "gif", true, false},
		{TypeImage, "image", true, false},
		{TypeSound, "sound", true, false},
		{TypeInfo, "info", false, false},
		{TypeHTML, "html", false, false},
		{TypeTelnet, "telnet", false, false},
		{TypeTN3270, "tn3270", false, false},
		{TypeMirror, "mirror", false, false},
		{TypeError, "error", false, false},
		{TypeCSO, "cso", false, false},
		{TypeBitmap, "bitmap", true, false},
		{TypeMovie, "movie", true, false},
		{TypeAudio, "audio", true, false},
		{TypeDocument, "document", true, false},
		{TypeMIME, "mime", false, false},
		{'Z', "type 'Z'", false, false},
	}
	for _, tt := range tests {
		if tt.t.String() != tt.name || tt.t.IsBinary() != tt.binary || tt.t.IsMenu() != tt.isMenu {
			t.Errorf("%c: String %q IsBinary %v IsMenu %v", tt.t, tt.t.String(), tt.t.IsBinary(), tt.t.IsMenu())
		}
	}
}
