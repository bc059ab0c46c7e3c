package tn3270

// Integration tests against Hercules' TN3270 console port (TN3270_PORT),
// started by scripts/servers/start-tn3270.sh. Without the variable they
// skip, or fail with URLKIT_REQUIRE_SERVERS=1.

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/wiretest"
)

func testCtx(t *testing.T) context.Context { return wiretest.Context(t, 20*time.Second) }

func hercules(t *testing.T) string {
	t.Helper()
	return "127.0.0.1:" + wiretest.ServerEnv(t, "TN3270_PORT")["TN3270_PORT"]
}

// The logo screen Hercules shows a console terminal with no OS loaded.
func TestHerculesLogoScreen(t *testing.T) {
	addr := hercules(t)
	var trace bytes.Buffer
	c := connect(t, &Dialer{Trace: &trace}, addr)
	text := c.Screen.Text()
	t.Logf("screen:\n%s", text)
	for _, re := range []string{`(?m)^ *Hercules +Version +: +\S+`, `(?m)Host name +:`, `(?m)Device number +: +00[1-3][0-9A-F]`, `(?m)^.*HHH.*HHH`} {
		if !regexp.MustCompile(re).MatchString(text) {
			t.Errorf("screen lacks %s", re)
		}
	}
	if got := strings.Count(text, "\n"); got != Rows {
		t.Errorf("%d lines", got)
	}
	c.Close() // flushes the trace
	// The negotiation of RFC 1576, in the order Hercules asks.
	// Byte for byte: the Erase/Write (F5) and its WCC follow WILL BINARY.
	for _, want := range []string{`\xff\xfb\x00\xf5`, `> \xff\xfb\x18`, `\xff\xfa\x18\x00IBM-3278-2\xff\xf0`, `\xff\xfb\x19`, `\xff\xfd\x19`, `\xff\xfb\x00`, `\xff\xfd\x00`} {
		if !strings.Contains(trace.String(), want) {
			t.Errorf("trace lacks %s:\n%s", want, trace.String())
		}
	}
}

// Two sessions at once get two console devices (0010, 0011): the screen
// comes from the server's state, not from a canned reply.
func TestHerculesTwoTerminals(t *testing.T) {
	addr := hercules(t)
	var d Dialer
	var devices []string
	for range 2 {
		c := connect(t, &d, addr)
		defer c.Close()
		m := regexp.MustCompile(`Device number +: +(\S+)`).FindStringSubmatch(c.Screen.Text())
		if m == nil {
			t.Fatalf("no device number:\n%s", c.Screen.Text())
		}
		devices = append(devices, m[1])
	}
	if devices[0] == devices[1] {
		t.Errorf("both sessions on device %s", devices[0])
	}
}

// connect dials Hercules and reads the first screen.
func connect(t *testing.T, d *Dialer, addr string) *Conn {
	t.Helper()
	c, err := d.Dial(testCtx(t), addr)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.ReadScreen(testCtx(t)); err != nil {
		t.Fatalf("ReadScreen: %v", err)
	}
	if strings.Contains(c.Screen.Text(), "no available 3270 device") {
		// Hercules without an OS keeps the device of every closed
		// session: restart it (scripts/servers/start-tn3270.sh).
		t.Fatalf("Hercules has no free 3270 device left (32 sessions per start):\n%s", c.Screen.Text())
	}
	return c
}
