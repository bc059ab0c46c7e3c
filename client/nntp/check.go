package nntp

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"time"
)

// ArticleError reports why CheckArticle refused an article: the 1-based
// line of the header, the field concerned (when there is one) and the
// rule of RFC 5536 (or RFC 5322, which it builds on) that was broken.
type ArticleError struct {
	Line  int    // 0 when the problem is a missing field
	Field string // field name, as written, or ""
	Rule  string // what is wrong, with the section
}

// Error describes the problem.
func (e *ArticleError) Error() string {
	var b strings.Builder
	b.WriteString("nntp: bad article: ")
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Field != "" {
		b.WriteString(safe(e.Field) + ": ")
	}
	b.WriteString(e.Rule)
	return b.String()
}

// Is matches ErrBadArticle.
func (e *ArticleError) Is(target error) bool { return target == ErrBadArticle }

// ArticleOptions are what CheckArticle adds to an article.
type ArticleOptions struct {
	// Newsgroups is set as the Newsgroups field when the article has none
	// (a comma-separated list of group names); an article with its own
	// must name the same groups, or it is refused: posted, it would go
	// where its field says, not where it was asked to.
	Newsgroups string
	// Now is the time used for a missing Date field (default time.Now()).
	Now time.Time
	// Domain is the right-hand side of a generated Message-ID; it should
	// be a domain the poster controls (RFC 5536 section 3.1.3). Default
	// "urlkit.invalid".
	Domain string
}

// Header fields that may appear at most once (RFC 5536 section 3, RFC
// 5322 section 3.6), lower case.
var singleFields = map[string]bool{
	"from": true, "sender": true, "subject": true, "date": true, "message-id": true,
	"newsgroups": true, "path": true, "references": true, "followup-to": true,
	"reply-to": true, "expires": true, "control": true, "distribution": true,
	"organization": true, "approved": true, "supersedes": true, "lines": true,
}

// maxHeaderLine is the RFC 5322 section 2.1.1 limit of 998 octets per line.
const maxHeaderLine = 998

// CheckArticle checks the header of article (header, empty line, body;
// LF or CRLF line ends) against RFC 5536 before it is posted, and returns
// it with the fields that are missing added at the top: Newsgroups (from
// opt), Date and Message-ID. It refuses, with an *ArticleError naming
// the line and the rule:
//
//   - NUL anywhere, a CR not followed by LF, a header line over 998 octets;
//   - a header line that is not "name: value" (field names are printable
//     US-ASCII without ":"), or a header without its empty line;
//   - a missing or empty From or Subject, or no Newsgroups (section 3.1),
//     or one that names other groups than opt.Newsgroups;
//   - a field that must appear once appearing twice;
//   - a Newsgroups or Followup-To value that is not a list of group names
//     (section 3.1.4: components of letters, digits, "+", "-", "_");
//   - a Message-ID that is not a msg-id (section 3.1.3), a Date that
//     net/mail cannot parse (section 3.1.1).
//
// The article is not otherwise changed; Post sends it dot-stuffed.
func CheckArticle(article []byte, opt ArticleOptions) ([]byte, error) {
	if i := bytes.IndexByte(article, 0); i >= 0 {
		return nil, &ArticleError{Line: 1 + bytes.Count(article[:i], []byte("\n")), Rule: "NUL byte (RFC 5536 section 2.2 via RFC 5322 section 2.1)"}
	}
	rest := article
	seen := map[string]int{} // lower-case name -> line
	var last string          // lower-case name of the field being continued
	values := map[string]string{}
	lineNo := 0
	headerEnd := -1
	for len(rest) > 0 {
		lineNo++
		i := bytes.IndexByte(rest, '\n')
		var line []byte
		if i < 0 {
			line, rest = rest, nil
		} else {
			line, rest = rest[:i], rest[i+1:]
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if j := bytes.IndexByte(line, '\r'); j >= 0 {
			return nil, &ArticleError{Line: lineNo, Rule: "bare CR in the header (RFC 5322 section 2.2)"}
		}
		if len(line) > maxHeaderLine {
			return nil, &ArticleError{Line: lineNo, Rule: fmt.Sprintf("header line of %d octets, over 998 (RFC 5322 section 2.1.1)", len(line))}
		}
		if len(line) == 0 {
			headerEnd = len(article) - len(rest)
			break
		}
		if line[0] == ' ' || line[0] == '\t' { // folded continuation
			if last == "" {
				return nil, &ArticleError{Line: lineNo, Rule: "continuation line before any field (RFC 5322 section 2.2.3)"}
			}
			values[last] += " " + strings.TrimSpace(string(line))
			continue
		}
		colon := bytes.IndexByte(line, ':')
		if colon <= 0 {
			return nil, &ArticleError{Line: lineNo, Rule: `not a "name: value" header field (RFC 5322 section 2.2)`}
		}
		name := string(line[:colon])
		for k := 0; k < len(name); k++ {
			if name[k] < 33 || name[k] > 126 {
				return nil, &ArticleError{Line: lineNo, Field: name, Rule: fmt.Sprintf("byte 0x%02x in a field name (RFC 5322 section 2.2: printable US-ASCII except colon)", name[k])}
			}
		}
		lower := strings.ToLower(name)
		if prev, dup := seen[lower]; dup && singleFields[lower] {
			return nil, &ArticleError{Line: lineNo, Field: name, Rule: fmt.Sprintf("appears again (first on line %d); it may appear once (RFC 5536 section 3)", prev)}
		}
		seen[lower] = lineNo
		last = lower
		values[lower] = strings.TrimSpace(string(line[colon+1:]))
	}
	if headerEnd < 0 {
		return nil, &ArticleError{Line: lineNo, Rule: "no empty line after the header (RFC 5322 section 2.1)"}
	}
	for _, f := range [...]string{"from", "subject"} {
		if values[f] == "" {
			return nil, &ArticleError{Line: seen[f], Field: fieldName(f), Rule: "missing or empty; it is mandatory (RFC 5536 section 3.1)"}
		}
	}
	if _, err := mail.ParseAddressList(values["from"]); err != nil {
		return nil, &ArticleError{Line: seen["from"], Field: "From", Rule: "not a mailbox list (RFC 5536 section 3.1.2, RFC 5322 section 3.6.2): " + err.Error()}
	}
	var add []string
	if _, ok := seen["newsgroups"]; !ok {
		if opt.Newsgroups == "" {
			return nil, &ArticleError{Field: "Newsgroups", Rule: "missing; it is mandatory (RFC 5536 section 3.1.4)"}
		}
		if err := checkNewsgroups(opt.Newsgroups); err != "" {
			return nil, &ArticleError{Field: "Newsgroups", Rule: err}
		}
		add = append(add, "Newsgroups: "+opt.Newsgroups)
	}
	for _, f := range [...]string{"newsgroups", "followup-to"} {
		if line, ok := seen[f]; ok {
			v := values[f]
			if f == "followup-to" && v == "poster" {
				continue
			}
			if err := checkNewsgroups(v); err != "" {
				return nil, &ArticleError{Line: line, Field: fieldName(f), Rule: err}
			}
		}
	}
	if line, ok := seen["newsgroups"]; ok && opt.Newsgroups != "" && !sameGroups(values["newsgroups"], opt.Newsgroups) {
		return nil, &ArticleError{Line: line, Field: "Newsgroups", Rule: fmt.Sprintf("%q is not the %q asked for; the article would go where its field says: remove the field, or ask for those groups", values["newsgroups"], opt.Newsgroups)}
	}
	if line, ok := seen["message-id"]; ok {
		if err := checkMsgID(values["message-id"]); err != "" {
			return nil, &ArticleError{Line: line, Field: "Message-ID", Rule: err}
		}
	} else {
		id, err := newMessageID(opt.Domain)
		if err != nil {
			return nil, err
		}
		add = append(add, "Message-ID: "+id)
	}
	if line, ok := seen["date"]; ok {
		if _, err := mail.ParseDate(values["date"]); err != nil {
			return nil, &ArticleError{Line: line, Field: "Date", Rule: "not an RFC 5322 date-time (RFC 5536 section 3.1.1)"}
		}
	} else {
		now := opt.Now
		if now.IsZero() {
			now = time.Now()
		}
		add = append(add, "Date: "+now.Format(time.RFC1123Z))
	}
	if len(add) == 0 {
		return article, nil
	}
	eol := "\n"
	if i := bytes.IndexByte(article, '\n'); i > 0 && article[i-1] == '\r' {
		eol = "\r\n"
	}
	out := make([]byte, 0, len(article)+128)
	for _, a := range add {
		out = append(out, a...)
		out = append(out, eol...)
	}
	return append(out, article...), nil
}

func fieldName(lower string) string {
	switch lower {
	case "from":
		return "From"
	case "subject":
		return "Subject"
	case "newsgroups":
		return "Newsgroups"
	case "followup-to":
		return "Followup-To"
	}
	return lower
}

// sameGroups reports whether two newsgroup lists name the same groups,
// in any order, white space around the commas aside.
func sameGroups(a, b string) bool {
	set := func(l string) []string {
		var gs []string
		for g := range strings.SplitSeq(l, ",") {
			if g = strings.TrimSpace(g); g != "" {
				gs = append(gs, g)
			}
		}
		slices.Sort(gs)
		return slices.Compact(gs)
	}
	return slices.Equal(set(a), set(b))
}

// checkNewsgroups checks a newsgroup list (RFC 5536 section 3.1.4):
//
//	newsgroup-list = [FWS] newsgroup-name *( [FWS] "," [FWS] newsgroup-name ) [FWS]
//	newsgroup-name = component *( "." component )
//	component      = 1*component-char
//	component-char = ALPHA / DIGIT / "+" / "-" / "_"
//
// It returns "" or the rule broken.
func checkNewsgroups(list string) string {
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			return "empty newsgroup name in the list (RFC 5536 section 3.1.4)"
		}
		for _, comp := range strings.Split(name, ".") {
			if comp == "" {
				return fmt.Sprintf("newsgroup %q has an empty component (RFC 5536 section 3.1.4)", safe(name))
			}
			for i := 0; i < len(comp); i++ {
				b := comp[i]
				if !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || isDigit(b) || b == '+' || b == '-' || b == '_') {
					return fmt.Sprintf("newsgroup %q: byte 0x%02x is not a component-char (RFC 5536 section 3.1.4)", safe(name), b)
				}
			}
		}
	}
	return ""
}

// checkMsgID checks a Message-ID field value (RFC 5536 section 3.1.3:
// "<" id-left "@" id-right ">", at most 250 octets, no whitespace). It
// returns "" or the rule broken.
func checkMsgID(v string) string {
	if err := CheckMessageID(v); err != nil {
		return "not a msg-id (RFC 5536 section 3.1.3): " + strings.TrimPrefix(err.Error(), "unsafe argument: ")
	}
	left, right, ok := strings.Cut(v[1:len(v)-1], "@")
	if !ok || left == "" || right == "" || strings.Contains(right, "@") {
		return "not a msg-id: want <id-left@id-right> (RFC 5536 section 3.1.3)"
	}
	return ""
}

// newMessageID returns "<random@domain>".
func newMessageID(domain string) (string, error) {
	if domain == "" {
		domain = "urlkit.invalid"
	}
	var r [12]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "", fmt.Errorf("nntp: message-id: %w", err)
	}
	id := "<" + hex.EncodeToString(r[:]) + "@" + domain + ">"
	if msg := checkMsgID(id); msg != "" {
		return "", &ArticleError{Field: "Message-ID", Rule: "domain " + safe(domain) + ": " + msg}
	}
	return id, nil
}
