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

// snippet returns the start of a candidate for a Problem: its password
// hidden (safetext.RedactURL), then at most snippetMax bytes, cut at a
// line break. The password is found in the whole candidate first: a
// wrapped URL may break a line inside it (RFC 1738 appendix), or it may
// run past snippetMax, and a cut there would leave no "@" to find it by.
func snippet(b []byte) string {
	s := safetext.RedactURL(string(b))
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
