package fetch

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/wiretest"
)

// testCtx bounds a test's network operations.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// serverLog follows a server's log file: lines written after it was
// created are returned by newLines.
type serverLog struct {
	path string
	mark int64
}

// followLog starts following the log named by the environment variable
// key (FTP_LOG, HTTP_LOG, ...), skipping or failing the test like
// wiretest.ServerEnv when it is not set.
func followLog(t *testing.T, key string) *serverLog {
	t.Helper()
	p := wiretest.ServerEnv(t, key)[key]
	l := &serverLog{path: p}
	if fi, err := os.Stat(p); err == nil {
		l.mark = fi.Size()
	}
	return l
}

// newLines returns what was logged since followLog, waiting up to 10 s
// until it holds want n times (servers log after they answer, and a
// loaded machine may run the server late).
func (l *serverLog) newLines(t *testing.T, want string, n int) string {
	t.Helper()
	var s string
	for i := 0; i < 200; i++ {
		b, err := os.ReadFile(l.path)
		if err != nil {
			t.Fatalf("server log: %v", err)
		}
		if int64(len(b)) >= l.mark {
			s = string(b[l.mark:])
		}
		if strings.Count(s, want) >= n {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	return s
}

// settle waits a moment for a server to write the log lines of a request
// that must not show something (used before a negative check).
func settle() { time.Sleep(200 * time.Millisecond) }
