package wire

import (
	"bytes"
	"io"
	"net"
	"runtime"
	"testing"
	"time"
)

// batchPair returns a batched client connection and the server's end of
// it, over loopback TCP.
func batchPair(t *testing.T) (client net.Conn, server net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server = <-accepted
	if server == nil {
		t.Fatal("accept failed")
	}
	client = BatchReads(c)
	t.Cleanup(func() { client.Close(); server.Close() })
	return client, server
}

// A sender slower than the batch size: its bytes must still arrive, each
// time within about BatchPatience, not wait for BatchSize bytes or the
// end of the stream.
func TestBatchReadsSlowSender(t *testing.T) {
	client, server := batchPair(t)
	if runtime.GOOS == "linux" {
		if _, ok := client.(*batchConn); !ok {
			t.Fatalf("BatchReads returned %T on Linux, want the batching conn", client)
		}
	}
	buf := make([]byte, 1024)
	for _, msg := range []string{"first", "second", "third"} {
		// The read waits before the bytes come: only the patience timer
		// can wake it, the end of the stream being far.
		sent := make(chan time.Time, 1)
		go func() {
			time.Sleep(50 * time.Millisecond)
			sent <- time.Now()
			server.Write([]byte(msg))
		}()
		client.SetReadDeadline(time.Now().Add(5 * time.Second))
		n, err := client.Read(buf)
		if err != nil || string(buf[:n]) != msg {
			t.Fatalf("read %q, %v; want %q", buf[:n], err, msg)
		}
		if d := time.Since(<-sent); d > 2*time.Second { // BatchPatience, with room for a loaded machine
			t.Fatalf("%q took %v to arrive", msg, d)
		}
	}
}

// A bulk stream arrives whole and in order, and the end of the stream
// wakes the reader whatever is queued.
func TestBatchReadsBulk(t *testing.T) {
	client, server := batchPair(t)
	want := make([]byte, 3*BatchSize+12345)
	for i := range want {
		want[i] = byte(i * 7)
	}
	go func() {
		for p := want; len(p) > 0; {
			n, _ := server.Write(p[:min(len(p), 4096)])
			p = p[n:]
		}
		server.Close()
	}()
	client.SetReadDeadline(time.Now().Add(10 * time.Second))
	got, err := io.ReadAll(client)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes, %v; want the %d bytes sent", len(got), err, len(want))
	}
}

// Something that is not a socket is returned as it is.
func TestBatchReadsNotASocket(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if got := BatchReads(a); got != a {
		t.Fatalf("BatchReads(pipe) = %T, want the pipe itself", got)
	}
}
