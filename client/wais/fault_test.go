package wais

// Fault injection with wiretest: what freeWAIS does not produce on demand
// (truncated messages, absurd lengths, garbage, stalls). Normal behaviour
// is tested against the real server in integration_test.go.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	wt "github.com/urlkit/urlkit/internal/wiretest"
)

// expectRequest reads one WAIS message from the client and checks that it
// decodes as a request.
func expectRequest() wt.Step {
	return wt.Func(func(s *wt.Session) error {
		_, err := readRequest(s.Conn)
		return err
	})
}

// readRequest reads and decodes one request message.
func readRequest(r io.Reader) (any, error) {
	var h [HeaderLen]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return nil, fmt.Errorf("reading WAIS header: %w", err)
	}
	n, err := ParseHeader(h[:], 1<<20)
	if err != nil {
		return nil, err
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, fmt.Errorf("reading APDU: %w", err)
	}
	return ParseRequest(append(h[:], body...))
}

// message frames an APDU with a WAIS header announcing n bytes.
func message(n int, apdu string) string {
	return fmt.Sprintf("%010dz2wais        0", n) + apdu
}

// A search response with one hit whose headline field claims lenClaim
// bytes.
func hitResponse(headline string, lenClaim int) string {
	group := "t\x02id" + "{" + string(appendCompressed(nil, uint64(lenClaim))) + headline
	user := "\x81\x16" + string(appendCompressed(nil, uint64(len(group)))) + group
	apdu := "\x00\x0e\x17\x01\x00\x00\x01\x00\x00\x01\x00\x00\x00\x1b\x01\x00" + "c" + string(appendCompressed(nil, uint64(len(user)))) + user
	return message(len(apdu), apdu)
}

func search(t *testing.T, addr string) (*SearchResponse, error) {
	t.Helper()
	c, err := (&Dialer{}).Dial(testCtx(t), addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.Search(testCtx(t), &SearchRequest{Database: "test", SeedWords: "x"})
}

func TestFaultWellFormed(t *testing.T) {
	// the fake server's canned response is valid: the faults below differ
	// from it in one thing each
	srv := wt.Start(t, expectRequest(), wt.SendRaw(hitResponse("A hit", 5)))
	sr, err := search(t, srv.Addr())
	if err != nil || len(sr.Hits) != 1 || sr.Hits[0].Headline != "A hit" || string(sr.Hits[0].DocID) != "id" {
		t.Fatalf("%+v, %v", sr, err)
	}
}

func TestFaultTruncated(t *testing.T) {
	full := hitResponse("A hit", 5)
	for _, cut := range []int{3, HeaderLen, HeaderLen + 10, len(full) - 1} {
		srv := wt.Start(t, expectRequest(), wt.SendRaw(full[:cut]), wt.Close())
		_, err := search(t, srv.Addr())
		if !errors.Is(err, ErrTruncated) {
			t.Errorf("cut at %d: err = %v, want ErrTruncated", cut, err)
		}
	}
}

func TestFaultAbsurdLengths(t *testing.T) {
	tests := []struct {
		name, msg string
	}{
		{"WAIS header length", "9999999999z2wais        0" + strings.Repeat("x", 100)},
		{"field length beyond the message", hitResponse("A hit", 1<<20)},
		{"field length beyond its group", hitResponse("A hit", 200)},
		{"APDU header length", message(5, "\xff\xff\x17\x00\x00")},
		{"compressed integer without end", message(16, "\x00\x0e\x17\x01"+strings.Repeat("\x00", 9)+"\xff\xff\xff\xff")},
		{"not a WAIS header", "HTTP/1.0 200 OK\r\n\r\nhello, world"},
		{"unexpected PDU", message(4, "\x00\x02\x15\x01")[:HeaderLen+2] + "\x16\x01"},
	}
	for _, tt := range tests {
		srv := wt.Start(t, expectRequest(), wt.SendRaw(tt.msg), wt.Close())
		start := time.Now()
		_, err := search(t, srv.Addr())
		var de *DecodeError
		if !errors.As(err, &de) || !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: err = %v, want a *DecodeError", tt.name, err)
		} else {
			t.Logf("%s: %v", tt.name, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: took %v", tt.name, d)
		}
	}
}

func TestFaultBrokenConnection(t *testing.T) {
	srv := wt.Start(t, expectRequest(), wt.SendRaw(message(5, "\xff\xff\x17\x00\x00")))
	c, err := (&Dialer{}).Dial(testCtx(t), srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Search(testCtx(t), &SearchRequest{Database: "test", SeedWords: "x"}); !errors.Is(err, ErrMalformed) {
		t.Fatalf("err = %v", err)
	}
	// after a malformed message the stream position is lost: no reuse
	if _, err := c.Search(testCtx(t), &SearchRequest{Database: "test", SeedWords: "x"}); !errors.Is(err, ErrClosed) {
		t.Errorf("second search: %v, want ErrClosed", err)
	}
}

func TestFaultStall(t *testing.T) {
	srv := wt.Start(t, expectRequest(), wt.SendRaw(hitResponse("A hit", 5)[:30]), wt.Stall())
	c, err := (&Dialer{}).Dial(testCtx(t), srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = c.Search(ctx, &SearchRequest{Database: "test", SeedWords: "x"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v", d)
	}
}

// A document whose server stops short of the length its hit gave.
func TestFaultShortDocument(t *testing.T) {
	srv := wt.Start(t, expectRequest(), wt.SendRaw(textResponse("0123456789")), expectRequest(), wt.SendRaw(textResponse("")))
	c, err := (&Dialer{ChunkSize: 10}).Dial(testCtx(t), srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, err := io.ReadAll(c.Open(testCtx(t), "test", []byte("id"), "TEXT", 25))
	if !errors.Is(err, ErrShortDocument) || string(got) != "0123456789" {
		t.Errorf("%q, %v; want the 10 bytes and ErrShortDocument", got, err)
	}
}

// textResponse is a retrieval response holding text.
func textResponse(text string) string {
	group := "t\x02id" + "\x7f" + string(appendCompressed(nil, uint64(len(text)))) + text
	user := "\x81\x19" + string(appendCompressed(nil, uint64(len(group)))) + group
	apdu := "\x00\x0e\x17\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x1b\x01\x00" + "c" + string(appendCompressed(nil, uint64(len(user)))) + user
	return message(len(apdu), apdu)
}

// A source record is read whole or refused, never cut: its INFO hit may
// give no length (read to its end) or one past what a source record
// holds (refused, nothing retrieved). (freeWAIS gives a true length; a
// fake server the others.)
func TestFaultSourceLength(t *testing.T) {
	record := "(:source :version 3 :description \"" + strings.Repeat("d", 300) + "\")"
	srv := wt.Start(t, expectRequest(), wt.SendRaw(hitResponse("test.src", 8)), expectRequest(), wt.SendRaw(textResponse(record)))
	c, err := (&Dialer{}).Dial(testCtx(t), srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	src, err := c.Source(testCtx(t), "test")
	if err != nil || src.Text != record {
		t.Fatalf("no length: %v, %d bytes", err, len(src.Text))
	}
	long := string(appendNumber(nil, tagDocumentLength, 200000))
	group := "t\x02id" + long + "{" + string(appendCompressed(nil, 8)) + "test.src"
	user := "\x81\x16" + string(appendCompressed(nil, uint64(len(group)))) + group
	apdu := "\x00\x0e\x17\x01\x00\x00\x01\x00\x00\x01\x00\x00\x00\x1b\x01\x00" + "c" + string(appendCompressed(nil, uint64(len(user)))) + user
	srv = wt.Start(t, expectRequest(), wt.SendRaw(message(len(apdu), apdu)))
	c2, err := (&Dialer{}).Dial(testCtx(t), srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if _, err := c2.Source(testCtx(t), "test"); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "200000 bytes") {
		t.Errorf("200000 bytes: %v", err)
	}
}

func TestFaultClosedWithoutResponse(t *testing.T) {
	srv := wt.Start(t, expectRequest(), wt.Close())
	_, err := search(t, srv.Addr())
	if !errors.Is(err, io.EOF) || errors.Is(err, ErrTruncated) {
		t.Fatalf("err = %v, want io.EOF (no response at all)", err)
	}
	srv = wt.Start(t, expectRequest(), wt.Reset())
	if _, err := search(t, srv.Addr()); err == nil {
		t.Fatal("reset connection: no error")
	}
}
