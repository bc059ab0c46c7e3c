package tn3270

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
)

// ebc encodes ASCII text as CP037.
func ebc(s string) []byte {
	b := make([]byte, len(s))
	for i, r := range s {
		e, ok := EncodeEBCDIC(r)
		if !ok {
			panic(r)
		}
		b[i] = e
	}
	return b
}

func addr(a int) []byte { return appendAddress(nil, a) }

func rec(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch v := p.(type) {
		case byte:
			b = append(b, v)
		case int:
			b = append(b, byte(v))
		case []byte:
			b = append(b, v...)
		case string:
			b = append(b, ebc(v)...)
		}
	}
	return b
}

// A logon-like screen: protected label, unprotected input, hidden
// password field, cursor in the input field.
func logonScreen(t *testing.T) *Screen {
	t.Helper()
	s := NewScreen()
	r := rec(cmdEW, 0xC3, // WCC: reset, restore keyboard, reset MDT
		orderSBA, addr(0), orderSF, AttrProtected|AttrIntensify, "USERID:",
		orderSF, 0x00, orderIC, orderRA, addr(20), 0x00, // 11 nulls of input
		orderSF, AttrProtected, "PASSWORD:",
		orderSFE, 2, xa3270, AttrHidden, xaColor, 0xF2, "OLDPW",
		orderSF, AttrProtected|AttrMDT, // a stopper; the host may set MDT
		orderSBA, addr(80), orderSA, xaHighlight, 0xF1, "ROW2", orderSA, xaAll, 0,
		orderSBA, addr(160), orderGE, 0xAD, "X")
	res, err := s.Apply(r)
	if err != nil || !res.Wrote || res.Reply != nil {
		t.Fatalf("%+v %v", res, err)
	}
	return s
}

func TestApplyOrders(t *testing.T) {
	s := logonScreen(t)
	text := s.Text()
	lines := strings.Split(text, "\n")
	if want := " USERID:             PASSWORD:"; lines[0] != want {
		t.Errorf("row 1 = %q, want %q", lines[0], want)
	}
	if lines[1] != "ROW2" || lines[2] != " X" || len(lines) != Rows+1 {
		t.Errorf("rows 2-3 = %q %q (%d lines)", lines[1], lines[2], len(lines))
	}
	if s.Cursor != 9 || s.Locked {
		t.Errorf("cursor %d locked %v", s.Cursor, s.Locked)
	}
	f := s.Fields()
	if len(f) != 5 || f[1].Start != 8 || f[1].Len != 11 || f[1].Protected() || !f[3].Hidden() || f[3].Start != 30 || !f[4].Modified() || f[4].Start != 36 {
		t.Errorf("fields %+v", f)
	}
	if s.Cells[81].Highlight != 0xF1 || s.Cells[31].Color != 0 || s.Cells[30].Color != 0xF2 || !s.Cells[160].GE {
		t.Errorf("attributes: %+v %+v %+v", s.Cells[81], s.Cells[30], s.Cells[160])
	}
	if s.FieldText(f[3]) != "OLDPW" {
		t.Errorf("hidden field text %q", s.FieldText(f[3]))
	}
}

func TestTypeAndInput(t *testing.T) {
	s := logonScreen(t)
	if err := s.Type("IBMUSER"); err != nil {
		t.Fatal(err)
	}
	s.Tab() // to the password field
	if s.Cursor != 31 {
		t.Fatalf("cursor after tab %d", s.Cursor)
	}
	if err := s.Press(Key{Kind: KeyEraseEOF}); err != nil {
		t.Fatal(err)
	}
	if err := s.Type("PASS"); err != nil {
		t.Fatal(err)
	}
	if row := strings.Split(s.Text(), "\n")[0]; row != " USERID: IBMUSER     PASSWORD:" {
		t.Errorf("hidden field shown:\n%s", s.Text())
	}
	got := s.Input(AIDEnter)
	want := rec(byte(AIDEnter), addr(35), orderSBA, addr(9), "IBMUSER", orderSBA, addr(31), "PASS", orderSBA, addr(37), "ROW2", orderGE, 0xAD, "X")
	if !bytes.Equal(got, want) {
		t.Errorf("Input = % X\nwant    % X", got, want)
	}
	if got := s.Input(AIDPA1); !bytes.Equal(got, []byte{byte(AIDPA1)}) {
		t.Errorf("PA1 = % X", got)
	}
	s.Cursor = 0
	var pe *ProtectedFieldError
	if err := s.Type("x"); !errors.As(err, &pe) || pe.Row != 1 || pe.Col != 1 {
		t.Errorf("typing on an attribute: %v", err)
	}
	s.Cursor = 2
	if err := s.Type("x"); !errors.As(err, &pe) || pe.Col != 3 {
		t.Errorf("typing into a protected field: %v", err)
	}
	s.Locked = true
	if err := s.Type("x"); err == nil {
		t.Error("typing with the keyboard locked")
	}
}

func TestApplyWriteResetEUA(t *testing.T) {
	s := logonScreen(t)
	s.Type("ABC")
	// Write (not erase) at the cursor position with reset MDT: the
	// labels stay, EUA erases the input fields.
	res, err := s.Apply(rec(cmdW, wccResetMDT, orderSBA, addr(0), orderEUA, addr(0)))
	if err != nil || !res.Wrote {
		t.Fatal(err)
	}
	if strings.Contains(s.Text(), "ABC") || !strings.Contains(s.Text(), "USERID:") || s.Fields()[1].Modified() {
		t.Errorf("after EUA:\n%s", s.Text())
	}
	// Erase All Unprotected: cursor to the first input field.
	s.Type("Z")
	if _, err := s.Apply([]byte{0x6F}); err != nil || strings.Contains(s.Text(), "Z") || s.Cursor != 9 {
		t.Errorf("EAU: %v cursor %d", err, s.Cursor)
	}
	// PT moves to the next unprotected field.
	if _, err := s.Apply(rec(0x01, 0x00, orderSBA, addr(0), orderPT, "Q")); err != nil || s.Cells[9].Char != ebc("Q")[0] {
		t.Errorf("PT: %v %+v", err, s.Cells[9])
	}
}

func TestApplyUnformatted(t *testing.T) {
	s := NewScreen()
	if _, err := s.Apply(rec(cmdEW, wccRestore, "HELLO", orderSBA, addr(Rows*Cols-2), "WRAP")); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(s.Text(), "\n")
	if lines[0] != "APLLO" || lines[23] != strings.Repeat(" ", 78)+"WR" {
		t.Errorf("%q %q", lines[0], lines[23])
	}
	s.Cursor = 10
	if err := s.Type("hi"); err != nil {
		t.Fatal(err)
	}
	if got, want := s.Input(AIDEnter), rec(byte(AIDEnter), addr(12), "APLLOhiWR"); !bytes.Equal(got, want) {
		t.Errorf("% X, want % X", got, want)
	}
	// RA to its own address fills the whole buffer.
	s.Apply(rec(cmdEW, 0, orderRA, addr(0), "*"))
	if strings.Count(s.Text(), "*") != Rows*Cols {
		t.Errorf("RA whole buffer:\n%s", s.Text())
	}
}

func TestApplyQueryAndReads(t *testing.T) {
	s := NewScreen()
	res, err := s.Apply([]byte{cmdWSF, 0x00, 0x05, 0x01, 0xFF, 0x02})
	if err != nil || res.Wrote || !bytes.Equal(res.Reply, QueryReply()) {
		t.Fatalf("%+v %v", res, err)
	}
	// The query reply's own structured-field lengths add up.
	q := QueryReply()[1:]
	for len(q) > 0 {
		l := int(q[0])<<8 | int(q[1])
		if l < 4 || l > len(q) || q[2] != 0x81 {
			t.Fatalf("bad query reply field % X", q)
		}
		q = q[l:]
	}
	s.Apply(rec(cmdEW, 0, orderSF, 0, "AB"))
	res, _ = s.Apply([]byte{cmdRB})
	if want := rec(byte(AIDNone), addr(0), orderSF, 0, "AB"); !bytes.HasPrefix(res.Reply, want) || len(res.Reply) != 3+Rows*Cols+1 {
		t.Errorf("RB % X", res.Reply[:8])
	}
}

func TestApplyErrors(t *testing.T) {
	tests := []struct {
		rec  []byte
		want string
	}{
		{nil, "record byte 0: empty record"},
		{[]byte{0x99}, "record byte 0: unknown command 0x99"},
		{[]byte{cmdW}, "record byte 1: write without a WCC byte"},
		{rec(cmdEW, 0, orderSBA, 0x7F), "record byte 2: SBA needs 2 more bytes"},
		{rec(cmdEW, 0, orderSBA, 0x3F, 0xFF), "record byte 3: SBA address 16383 is outside the 1920-position buffer"},
		{rec(cmdEW, 0, orderSFE, 3, xa3270, 0), "record byte 3: SFE needs 6 more bytes"},
		{rec(cmdEW, 0, orderMF, 0), "record byte 2: MF at a position that is not a field attribute"},
		{rec(cmdEW, 0, orderRA, addr(5), orderGE), "record byte 5: RA GE needs 1 more bytes"},
		{[]byte{cmdWSF, 0x00, 0x09, 0x01}, "record byte 1: structured field length 9 does not fit"},
		{[]byte{cmdWSF, 0x00}, "record byte 1: structured field shorter"},
	}
	for _, tt := range tests {
		_, err := NewScreen().Apply(tt.rec)
		if !errors.Is(err, ErrDataStream) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Apply(% X) = %v, want %q", tt.rec, err, tt.want)
		}
	}
}

func TestParseKeys(t *testing.T) {
	keys, err := ParseKeys("logon <<x><TAB>pw<enter><pf3><PA2><clear><home><eraseeof>")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k.String())
	}
	if got, want := b.String(), "logon <<x><tab>pw<enter><pf3><pa2><clear><home><eraseeof>"; got != want {
		t.Errorf("round trip %q, want %q", got, want)
	}
	if keys[3].AID != AIDEnter || keys[4].AID != 0xF3 {
		t.Errorf("%+v", keys)
	}
	for in, want := range map[string]string{
		"abc<enter":  "offset 3 has no closing",
		"<pf25>":     "no key PF25",
		"<frob>":     "unknown key <frob>",
		"a\nb":       "control byte 0x0a at offset 1",
		"x<pf>":      "offset 1: unknown key <pf>",
		"<pa1><pf0>": "no key PF0",
	} {
		if _, err := ParseKeys(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseKeys(%q) = %v, want %q", in, err, want)
		}
	}
}

func TestAddressRoundTrip(t *testing.T) {
	for a := 0; a < 4096; a++ {
		b := appendAddress(nil, a)
		if got := decodeAddress(b[0], b[1]); got != a {
			t.Fatalf("%d -> % X -> %d", a, b, got)
		}
	}
	if got := decodeAddress(0x07, 0x7F); got != 0x77F { // 14-bit form
		t.Errorf("14-bit: %d", got)
	}
}

func TestEBCDIC(t *testing.T) {
	if DecodeEBCDIC(0xC8) != 'H' || DecodeEBCDIC(0x40) != ' ' || DecodeEBCDIC(0x81) != 'a' {
		t.Error("CP037 decode")
	}
	if b, ok := EncodeEBCDIC('$'); !ok || b != 0x5B {
		t.Errorf("CP037 encode $: %X", b)
	}
}

// The SNA command codes are the same commands; EWA erases like EW; MF
// changes a field attribute in place.
func TestApplyCommandCodes(t *testing.T) {
	for _, code := range []byte{0x05, 0x0D, 0x7E} {
		s := NewScreen()
		s.Apply(rec(cmdEW, 0, "OLD"))
		if _, err := s.Apply(rec(code, wccRestore, orderSBA, addr(81), "NEW")); err != nil {
			t.Fatal(err)
		}
		if lines := strings.Split(s.Text(), "\n"); lines[0] != "" || lines[1] != " NEW" {
			t.Errorf("command 0x%02X: %q %q", code, lines[0], lines[1])
		}
	}
	s := NewScreen()
	s.Apply(rec(0x01, 0, "ABC")) // SNA Write: at the cursor (0), no erase
	s.Apply(rec(0x01, 0, orderSBA, addr(1), "x"))
	if !strings.HasPrefix(s.Text(), "AxC") {
		t.Errorf("write: %q", s.Text()[:5])
	}
	s.Apply(rec(cmdEW, 0, orderSF, AttrProtected, "SECRET", orderSBA, addr(0), orderMF, 1, xa3270, AttrProtected|AttrHidden))
	if strings.Contains(s.Text(), "SECRET") || !s.Fields()[0].Hidden() {
		t.Errorf("MF: %q %+v", s.Text()[:10], s.Fields())
	}
	if _, err := s.Apply([]byte{0x11, 0x00, 0x04, 0x03, 0x00}); err != nil || strings.TrimSpace(s.Text()) != "" {
		t.Errorf("WSF Erase/Reset (SNA code): %v", err)
	}
}

// A record captured from Hercules 3.13 (start-tn3270.sh): the logo
// screen, rendered to testdata/hercules-logo.txt.
func TestApplyHerculesRecord(t *testing.T) {
	rec, err := os.ReadFile("testdata/hercules-logo.rec")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/hercules-logo.txt")
	if err != nil {
		t.Fatal(err)
	}
	s := NewScreen()
	res, err := s.Apply(rec)
	if err != nil || !res.Wrote {
		t.Fatal(err)
	}
	if got := s.Text(); got != string(want) {
		t.Errorf("screen:\n%s\nwant:\n%s", got, want)
	}
	allocs := testing.AllocsPerRun(50, func() { s.Apply(rec) })
	if allocs != 0 {
		t.Errorf("Apply: %v allocations", allocs)
	}
}

func BenchmarkApply(b *testing.B) {
	rec, err := os.ReadFile("testdata/hercules-logo.rec")
	if err != nil {
		b.Fatal(err)
	}
	s := NewScreen()
	b.SetBytes(int64(len(rec)))
	b.ReportAllocs()
	for b.Loop() {
		s.Apply(rec)
	}
}

// Orders that scan the buffer stay linear: a record full of EUA and PT
// orders is applied quickly.
func TestApplyManyScans(t *testing.T) {
	r := rec(cmdEW, 0, orderSF, 0, orderSBA, addr(100), orderSF, AttrProtected)
	orders := 0
	for len(r) < DefaultMaxRecord-4 {
		r = append(r, orderEUA, addr(50)[0], addr(50)[1], orderPT)
		orders += 2
	}
	s := NewScreen()
	if _, err := s.Apply(r); err != nil {
		t.Fatal(err)
	}
	// Each EUA or PT order scans the buffer a bounded number of times
	// (fieldAt once, then one pass): linear in the screen, not quadratic.
	if limit := orders * 3 * s.size(); s.scanned > limit {
		t.Errorf("%d orders scanned %d cells, more than %d", orders, s.scanned, limit)
	}
	if s.scanned < orders {
		t.Errorf("%d orders scanned only %d cells: the count is not kept", orders, s.scanned)
	}
}
