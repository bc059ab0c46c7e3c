package extract

import (
	"errors"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/safetext"
)

// Sentinel causes of a Problem that the parser does not report.
var (
	// ErrUnclosed: a "<URL:" or "<scheme:" wrapper has no ">" before the
	// length limit, a blank line, another "<", or the end of the input.
	ErrUnclosed = errors.New("wrapper not closed")
	// ErrTooLong: a bare URL runs on for more than the length limit.
	ErrTooLong = errors.New("URL too long")
)

// A Problem is text that looks like a URL but is not extracted: a wrapper
// that is not closed, a URL longer than the limit, or a candidate the
// lenient parser rejects. The Scanner reports problems to Config.Problem.
type Problem struct {
	Offset       int64  // byte offset in the input of the problem (0-based)
	Line, Column int    // its position: 1-based line, 1-based byte column
	Start        int64  // offset of the candidate's first byte ("<" of a wrapper)
	Text         string // the candidate as written, password redacted, at most 64 bytes
	Wrapped      bool   // the candidate is a "<...>" wrapper
	// Err is the cause: ErrUnclosed or ErrTooLong (wrapped with details),
	// or the *urlkit.Error of the lenient parser, whose own Offset counts
	// from Start.
	Err error
}

// Error formats the problem as `extract: line L, column C (offset O):
// "TEXT": RULE`.
func (p *Problem) Error() string {
	var b strings.Builder
	b.WriteString("extract: line ")
	b.WriteString(strconv.Itoa(p.Line))
	b.WriteString(", column ")
	b.WriteString(strconv.Itoa(p.Column))
	b.WriteString(" (offset ")
	b.WriteString(strconv.FormatInt(p.Offset, 10))
	b.WriteString("): ")
	b.WriteString(strconv.Quote(p.Text))
	b.WriteString(": ")
	b.WriteString(p.Rule())
	return b.String()
}

// Rule returns what is wrong, without the position: the rule the lenient
// parser found broken, or the cause's message.
func (p *Problem) Rule() string {
	var ue *urlkit.Error
	if errors.As(p.Err, &ue) {
		return ue.Rule
	}
	if p.Err != nil {
		return p.Err.Error()
	}
	return ""
}

// Unwrap returns the cause.
func (p *Problem) Unwrap() error { return p.Err }

// snippetMax bounds Problem.Text.
const snippetMax = 64

// snippet returns the start of a candidate for a Problem: the passwords
// of its URLs hidden, then at most snippetMax bytes, cut at a line break.
// The passwords are found first, in the candidate's first redactWindow
// bytes: a wrapped URL may break a line inside one (RFC 1738 appendix),
// or it may run past snippetMax, and a cut there would leave no "@" to
// find it by. A password that the window cuts off is hidden from its
// ":" on.
func snippet(b []byte) string {
	w := string(b[:min(len(b), redactWindow)])
	var out strings.Builder
	last := 0
	for i := 0; ; {
		j := strings.Index(w[i:], "://")
		if j < 0 {
			break
		}
		at := i + j
		lo, hi := safetext.PasswordSpan(w[at:])
		if lo < 0 {
			if len(b) > len(w) {
				lo, hi = cutPassword(w[at:])
			}
			if lo < 0 {
				i = at + 3
				continue
			}
		}
		out.WriteString(w[last : at+lo])
		out.WriteString(safetext.Mask)
		last, i = at+hi, at+hi
		if out.Len() > snippetMax {
			break
		}
	}
	out.WriteString(w[last:])
	s := out.String()
	// Only the first snippetMax bytes are shown: a line break further on
	// changes nothing, and a wrapper left open runs to MaxLength.
	s = s[:min(len(s), snippetMax+1)]
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	if len(s) > snippetMax {
		s = s[:snippetMax] + "..."
	}
	return s
}

// redactWindow bounds the part of a candidate searched for passwords:
// the problems of a text of unclosed wrappers would otherwise each read
// up to MaxLength bytes.
const redactWindow = 1 << 10

// cutPassword returns the span from the ":" of "://user:" to the end of
// s, a window that ends before the password's "@" could be seen; -1, -1
// when s has no such ":" (a "/" or "@" first: no userinfo).
func cutPassword(s string) (lo, hi int) {
	rest := s[3:]
	k := strings.IndexAny(rest, ":/?#@")
	if k < 0 || rest[k] != ':' {
		return -1, -1
	}
	return 3 + k + 1, len(s)
}
