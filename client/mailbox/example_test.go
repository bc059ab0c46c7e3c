package mailbox_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/urlkit/urlkit/client/mailbox"
)

// Find a message by Message-ID in an mbox file (mid:), then a part of
// it by Content-ID (cid:), decoded.
func ExampleFind() {
	dir, err := os.MkdirTemp("", "mailbox-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	mbox := filepath.Join(dir, "mbox")
	os.WriteFile(mbox, []byte(strings.Join([]string{
		"From ann@example.org Mon Nov  2 12:00:00 2026",
		"From: ann@example.org",
		"Message-ID: <note@example.org>",
		"Content-Type: multipart/related; boundary=b",
		"",
		"--b",
		"Content-Type: text/plain",
		"",
		"see the logo",
		"--b",
		"Content-Type: image/gif",
		"Content-ID: <logo@example.org>",
		"Content-Transfer-Encoding: base64",
		"",
		"R0lGODlhAQABAAAAACw=",
		"--b--",
		"",
	}, "\n")), 0o644)

	m, err := mailbox.Find(context.Background(), "note@example.org", mbox) // mid:note@example.org
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.ID, m.Format == mailbox.Mbox)
	rc, err := m.Open()
	if err != nil {
		log.Fatal(err)
	}
	defer rc.Close()
	p, err := mailbox.FindPart(rc, "logo@example.org") // cid:logo@example.org
	if err != nil {
		log.Fatal(err)
	}
	b, _ := io.ReadAll(p.Body)
	fmt.Printf("%s %q\n", p.ContentType, b)
	// Output:
	// <note@example.org> true
	// image/gif "GIF89a\x01\x00\x01\x00\x00\x00\x00,"
}
