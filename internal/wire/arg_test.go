package wire

import (
	"errors"
	"testing"
)

func TestCheckArg(t *testing.T) {
	tests := []struct {
		s         string
		forbidTab bool
		offset    int // -1: accepted
		b         byte
	}{
		{"", false, -1, 0},
		{"/pub/hello.txt", false, -1, 0},
		{"sub dir/nested file.txt", false, -1, 0},
		{"100%.txt", false, -1, 0},
		{"tab\there", false, -1, 0},  // FTP: TAB is an ordinary byte in a path
		{"tab\there", true, 3, '\t'}, // Gopher: TAB separates request fields
		{"pub\r\nDELE x", false, 3, '\r'},
		{"pub\nDELE x", false, 3, '\n'},
		{"a\x00b", false, 1, 0},
		{"\r", true, 0, '\r'},
		{"ok\t\r", true, 2, '\t'}, // the first offender is reported
		{"héllo wörld", true, -1, 0},
		{"\x7f\x01\x1b", true, -1, 0}, // other controls are the protocol's business
	}
	for _, tt := range tests {
		err := CheckArg(tt.s, tt.forbidTab)
		if tt.offset < 0 {
			if err != nil {
				t.Errorf("CheckArg(%q, %v) = %v, want nil", tt.s, tt.forbidTab, err)
			}
			continue
		}
		var ae *ArgError
		if !errors.As(err, &ae) || ae.Offset != tt.offset || ae.Byte != tt.b {
			t.Errorf("CheckArg(%q, %v) = %#v, want offset %d byte %#x", tt.s, tt.forbidTab, err, tt.offset, tt.b)
		}
		if !errors.Is(err, ErrUnsafeArg) {
			t.Errorf("CheckArg(%q): errors.Is(err, ErrUnsafeArg) = false", tt.s)
		}
	}
}

func TestArgErrorMessage(t *testing.T) {
	err := CheckArg("pub\r\nQUIT", false)
	if got, want := err.Error(), "unsafe argument: CR (0x0d) at offset 3"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func BenchmarkCheckArg(b *testing.B) {
	s := "/pub/some/reasonably/long/path/to/a/file/name.txt"
	for b.Loop() {
		if CheckArg(s, true) != nil {
			b.Fatal("rejected")
		}
	}
}
