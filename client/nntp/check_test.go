package nntp

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestCheckArticle(t *testing.T) {
	now := time.Date(2026, 11, 2, 12, 0, 0, 0, time.UTC)
	opt := ArticleOptions{Now: now, Domain: "example.org", Newsgroups: "comp.infosystems.www"}
	tests := []struct {
		name    string
		in      string
		line    int    // want an *ArticleError on this line (-1: accepted)
		contain string // in the error message, or in the output
	}{
		{"complete, nothing added", "From: A <a@example.org>\nNewsgroups: a.b\nSubject: s\nMessage-ID: <1@example.org>\nDate: Mon, 02 Nov 2026 12:00:00 +0000\n\nbody\n", -1, ""},
		{"adds Newsgroups, Message-ID, Date (RFC 5536 3.1)", "From: a@example.org\nSubject: s\n\nbody\n", -1, "Newsgroups: comp.infosystems.www\nMessage-ID: <"},
		{"keeps CRLF", "From: a@example.org\r\nSubject: s\r\nNewsgroups: a.b\r\n\r\n", -1, "Date: Mon, 02 Nov 2026 12:00:00 +0000\r\n"},
		{"folded subject", "From: a@example.org\nSubject: long\n  folded\nNewsgroups: a.b\n\n", -1, "Message-ID: <"},
		{"no From (3.1)", "Subject: s\nNewsgroups: a.b\n\n", 0, "From: missing"},
		{"empty Subject (3.1)", "From: a@example.org\nSubject:  \nNewsgroups: a.b\n\n", 2, "Subject: missing or empty"},
		{"bad From", "From: not an address\nSubject: s\n\n", 1, "not a mailbox list"},
		{"two Subjects", "From: a@example.org\nSubject: s\nsubject: t\n\n", 3, "appears again (first on line 2)"},
		{"newsgroup with space (3.1.4)", "From: a@example.org\nSubject: s\nNewsgroups: a.b c.d\n\n", 3, "component-char"},
		{"newsgroup empty component", "From: a@example.org\nSubject: s\nNewsgroups: a..b\n\n", 3, "empty component"},
		{"newsgroups list with FWS", "From: a@example.org\nSubject: s\nNewsgroups: a.b, c.d\n\n", -1, "Message-ID: <"},
		{"Followup-To poster", "From: a@example.org\nSubject: s\nNewsgroups: a.b\nFollowup-To: poster\n\n", -1, "Message-ID: <"},
		{"bad Followup-To", "From: a@example.org\nSubject: s\nNewsgroups: a.b\nFollowup-To: a/b\n\n", 4, "Followup-To"},
		{"bad Message-ID (3.1.3)", "From: a@example.org\nSubject: s\nMessage-ID: <no-at>\n\n", 3, "id-left@id-right"},
		{"Message-ID with space", "From: a@example.org\nSubject: s\nMessage-ID: <a b@c>\n\n", 3, "Message-ID"},
		{"bad Date (3.1.1)", "From: a@example.org\nSubject: s\nDate: yesterday\n\n", 3, "date-time"},
		{"no empty line", "From: a@example.org\nSubject: s\n", 2, "no empty line"},
		{"NUL", "From: a@example.org\nSubject: s\n\nbo\x00dy\n", 4, "NUL"},
		{"bare CR in header", "From: a@example.org\nSubject: s\rBcc: x\n\n", 2, "bare CR"},
		{"not a field", "From: a@example.org\nno colon here\n\n", 2, "name: value"},
		{"space in field name", "From: a@example.org\nX Bad: v\n\n", 2, "field name"},
		{"continuation first", " x\nFrom: a@example.org\n\n", 1, "continuation"},
		{"long header line", "From: a@example.org\nSubject: " + strings.Repeat("x", 1000) + "\n\n", 2, "over 998"},
		// An article's own Newsgroups must be the groups asked for: it
		// goes where its field says.
		{"Newsgroups as asked", "From: a@example.org\nSubject: s\nNewsgroups:  comp.infosystems.www \n\n", -1, "Message-ID: <"},
		{"Newsgroups other than asked", "From: a@example.org\nSubject: s\nNewsgroups: local.test\n\n", 3, `"local.test" is not the "comp.infosystems.www" asked for`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := opt
			if strings.Contains(tt.name, "no From") || strings.Contains(tt.in, "Newsgroups:") && !strings.Contains(tt.name, "asked") {
				o.Newsgroups = "" // the article's own field is the one checked
			}
			out, err := CheckArticle([]byte(tt.in), o)
			if tt.line < 0 {
				if err != nil {
					t.Fatal(err)
				}
				if tt.contain == "" && string(out) != tt.in {
					t.Errorf("changed: %q", out)
				}
				if !strings.Contains(string(out), tt.contain) || !strings.HasSuffix(string(out), tt.in) {
					t.Errorf("out = %q", out)
				}
				return
			}
			var ae *ArticleError
			if !errors.As(err, &ae) || !errors.Is(err, ErrBadArticle) {
				t.Fatalf("err = %v, want *ArticleError", err)
			}
			if ae.Line != tt.line || !strings.Contains(err.Error(), tt.contain) {
				t.Errorf("err = %v (line %d), want line %d and %q", err, ae.Line, tt.line, tt.contain)
			}
		})
	}
}

func TestCheckMessageID(t *testing.T) {
	for _, ok := range []string{"<a@b>", "<x>", "<" + strings.Repeat("a", 248) + ">"} {
		if err := CheckMessageID(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "<>", "a@b", "<a@b", "<a>b>", "<a\r\n>", "<a b>", "<\x7f>", "<" + strings.Repeat("a", 249) + ">"} {
		if err := CheckMessageID(bad); !errors.Is(err, ErrUnsafeArg) {
			t.Errorf("%q: %v, want ErrUnsafeArg", bad, err)
		}
	}
}

func TestTraceMask(t *testing.T) {
	for in, want := range map[string]string{
		"AUTHINFO PASS secret":   "AUTHINFO PASS xxxxx",
		"authinfo pass s e c":    "authinfo pass xxxxx",
		"AUTHINFO USER tester":   "AUTHINFO USER tester",
		"AUTHINFO PASSWORD-ish ": "AUTHINFO PASSWORD-ish ",
	} {
		if got := maskSecrets(in); got != want {
			t.Errorf("maskSecrets(%q) = %q, want %q", in, got, want)
		}
	}
}
