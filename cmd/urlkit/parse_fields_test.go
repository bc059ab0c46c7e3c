package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"testing"
)

// An input that is not UTF-8 comes back exactly from parse --json's
// input_base64 (JSON's strings cannot hold it), and Go-quoted in text.
func TestParseInvalidUTF8Lossless(t *testing.T) {
	in := "http://h/a\xff\xfeb"
	st, out, _ := TestStreams("")
	if code := run(context.Background(), []string{"parse", "--json", in}, st); code != exitFail {
		t.Fatalf("exit %d", code)
	}
	var rec struct {
		Input       string `json:"input"`
		InputBase64 string `json:"input_base64"`
	}
	if err := json.Unmarshal(out.Bytes(), &rec); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	b, err := base64.StdEncoding.DecodeString(rec.InputBase64)
	if err != nil || string(b) != in {
		t.Errorf("input_base64 %q decodes to %q, %v; want %q", rec.InputBase64, b, err, in)
	}
	if rec.Input != "http://h/a\ufffd\ufffdb" {
		t.Errorf("input %q", rec.Input)
	}
	// Valid UTF-8 has no input_base64.
	st, out, _ = TestStreams("")
	run(context.Background(), []string{"parse", "--json", "--fields", "input,input_base64", "http://h/é"}, st)
	if got := out.String(); got != "{\"input\":\"http://h/é\"}\n" {
		t.Errorf("valid UTF-8: %s", got)
	}
	st, out, _ = TestStreams("")
	run(context.Background(), []string{"parse", "--fields", "input", in}, st)
	if got, want := out.String(), "input                 \"http://h/a\\xff\\xfeb\"\n"; got != want {
		t.Errorf("text: %q, want %q", got, want)
	}
}
