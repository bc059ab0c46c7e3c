package mailbox

// Mail really delivered by the test SMTP servers (aiosmtpd and Exim,
// scripts/servers/start-smtp.sh and start-smtp-exim.sh) into their
// Maildirs is found by Message-ID, and its parts by Content-ID. The mail
// is submitted with the standard library's net/smtp, so that this
// package's tests depend on no other client of the module.

import (
	"bytes"
	"fmt"
	"io"
	"net/smtp"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/wiretest"
)

func TestRealDeliveredMail(t *testing.T) {
	for _, srv := range []struct{ name, port, maildir string }{
		{"aiosmtpd", "SMTP_PORT", "SMTP_MAILDIR"},
		{"exim", "EXIM_PORT", "EXIM_MAILDIR"},
	} {
		t.Run(srv.name, func(t *testing.T) {
			env := wiretest.ServerEnv(t, srv.port, srv.maildir)
			m, png, html := related()
			id := fmt.Sprintf("mailbox-%d@example.org", time.Now().UnixNano())
			m = strings.Replace(m, "<rel@example.org>", "<"+id+">", 1)
			sendPlain(t, "127.0.0.1:"+env[srv.port], m)
			var found *Message
			deadline := time.Now().Add(10 * time.Second)
			for {
				var err error
				found, err = Find(t.Context(), id, env[srv.maildir])
				if err == nil || time.Now().After(deadline) {
					if err != nil {
						t.Fatal(err)
					}
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			if found.Format != Maildir || found.ID != "<"+id+">" {
				t.Errorf("found %+v", found)
			}
			rc, err := found.Open()
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(rc)
			rc.Close()
			for cid, want := range map[string]string{
				"img1@example.org":   string(png),
				"html@example.org":   strings.TrimSuffix(html, "\n") + "\r\n",
				"inside@example.org": "forwarded text",
			} {
				p, err := FindPart(bytes.NewReader(raw), cid)
				if err != nil {
					t.Errorf("%s: %v", cid, err)
					continue
				}
				got, err := io.ReadAll(p.Body)
				// the servers store LF line ends: QP text decodes with LF
				if err != nil || strings.ReplaceAll(string(got), "\r\n", "\n") != strings.ReplaceAll(want, "\r\n", "\n") {
					t.Errorf("%s: %q, %v; want %q", cid, got, err, want)
				}
			}
		})
	}
}

// sendPlain submits msg in clear (smtp.SendMail would insist on Exim's
// self-signed STARTTLS certificate).
func sendPlain(t *testing.T, addr, msg string) {
	t.Helper()
	c, err := smtp.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Mail("a@example.org"); err != nil {
		t.Fatal(err)
	}
	if err := c.Rcpt("rcpt@example.org"); err != nil {
		t.Fatal(err)
	}
	w, err := c.Data()
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, msg)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	c.Quit()
}
