package main

import (
	"bufio"
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/schemedata"
)

var parseCmd = &command{
	name:    "parse",
	args:    "[--mode M] [--json] [--fields F,...] [-j N] [URL...]",
	summary: "print the components of URLs",
	detail: `Parse prints the components of each URL: as "key value" lines for people,
or with --json one JSON object per URL per line. Components are shown as
written (still encoded); an absent component is (none) here and null in
JSON, an empty one "". scheme_data is the scheme's typed view with decoded
values. Invalid URLs print their errors (offset and rule; past 1000, in
--json, errors_omitted counts the rest) and make the exit status 1;
valid_in, present for them, names the mode that takes the URL ("valid in
--mode rfc3986"), or is null.

--fields F,... prints only the components named (the JSON keys below), in
the usual order: --fields host,port.

The input is the line as given. JSON strings cannot hold bytes that are
not UTF-8: in "input" they are written as U+FFFD, and the object then has
"input_base64", the exact bytes in standard base64 (RFC 4648 4), so that
no input is lost. Text output writes such an input Go-quoted ("\xff").

JSON keys: ` + strings.Join(parseFields[:], ", ") + ` (and errors_omitted
right after errors when errors were left out: --fields errors shows both).

` + modesHelp + `

Examples:
  urlkit parse 'ftp://myname@host.dom/%2Fetc/motd;type=a'
  urlkit parse --json 'ftp://@host.com/' 'ftp://foo:@host.com/'
  urlkit parse --mode rfc3986 --json 'http://[::1]:8080/a?b#c'
  urlkit parse --json --fields host,port 'http://h:8080/' 'ftp://h/'
  urlkit parse --mode lenient '<URL:http://example.com/a b>'
  cut -f1 urls.tsv | urlkit parse --json > components.jsonl`,
	setup: func(fs *flag.FlagSet) func(context.Context, *Streams, []string) int {
		mode := modeFlag(fs)
		asJSON := fs.Bool("json", false, "print one JSON object per URL per line (keys as in CLI.md)")
		fields := fs.String("fields", "", "print only the components `F,...` (JSON keys: host,port)")
		jobs := jobsFlag(fs, linesJobsUsage)
		return func(ctx context.Context, st *Streams, args []string) int {
			only, err := selectFields(*fields)
			if err != nil {
				fmt.Fprintf(st.Err, "urlkit parse: %v\nrun 'urlkit parse -h' for help\n", err)
				return exitUsage
			}
			out := bufio.NewWriter(st.Out)
			defer out.Flush()
			return eachInputJobs(ctx, st, out, args, *jobs, false, func() lineJob {
				var buf []byte              // reused: one record's JSON or text
				var parts []schemedata.Part // reused: its scheme_data's parts
				var r parsed                // reused: a fresh one per line would be a heap object each
				return func(n int, s string, out *bufio.Writer, errw io.Writer) int {
					r.parse(s, *mode)
					r.only = only
					if *asJSON {
						buf = append(r.appendJSON(buf[:0], &parts), '\n')
						out.Write(buf)
					} else {
						if n > 0 {
							out.WriteByte('\n')
						}
						buf = r.appendText(buf[:0], &parts)
						out.Write(buf)
					}
					if r.err != nil {
						out.Flush()
						hint := ""
						if r.validIn != "" {
							hint = validInPrefix + r.validIn
						}
						printErrorsHint(errw, r.errs, r.errTotal, hint)
						return exitFail
					}
					return exitOK
				}
			}, func(lineNo int, out *bufio.Writer) {
				if *asJSON {
					out.Write(overLongJSON(lineNo, *mode, only))
					out.WriteByte('\n')
				}
			})
		}
	},
}

// overLongJSON is the record of a line longer than maxLine: not valid,
// its input null (it was not kept), one error, every component null.
func overLongJSON(lineNo int, m urlkit.Mode, only fieldSet) []byte {
	o := jsonRecord{only: only}
	o.begin()
	o.null(fieldInput)
	o.boolean(fieldValid, false)
	if o.key(fieldErrors) {
		msg := fmt.Sprintf("standard input line %d: longer than %d bytes; skipped", lineNo, maxLine)
		o.b = appendOffsetMessages(o.b, 1, func(int) (int, string) { return maxLine, msg })
	}
	for f := fieldScheme; f < numFields; f++ {
		switch f {
		case fieldMode:
			o.str(f, m.String())
		case fieldWarnings:
			if o.key(f) {
				o.b = append(o.b, "[]"...)
			}
		case fieldInputBase64:
		default:
			o.null(f)
		}
	}
	o.end()
	return o.b
}

// maxErrorsListed bounds the errors of one URL in parse --json; the
// count of the others is "errors_omitted". A hostile line (a megabyte of
// "%") would otherwise build a million of them.
const maxErrorsListed = 1000

// parsed is one URL's parse result, ready to print.
type parsed struct {
	input    string
	mode     urlkit.Mode
	u        urlkit.URL
	err      error
	errs     urlkit.ErrorList // the first maxErrorsListed
	errTotal int              // how many errors there are in all
	warnings []urlkit.Warning
	validIn  string   // another mode that takes an invalid input, or ""
	only     fieldSet // the fields to print
}

// A parseField is a member of parse's JSON objects, by its place in
// their order (parseFields).
type parseField uint8

// The members of parse's JSON objects, in their order.
const (
	fieldInput parseField = iota
	fieldValid
	fieldErrors
	fieldScheme
	fieldUser
	fieldPassword
	fieldHost
	fieldPort
	fieldEffectivePort
	fieldURLPath
	fieldSchemeSpecificPart
	fieldAuthority
	fieldUserinfo
	fieldPath
	fieldQuery
	fieldFragment
	fieldSchemeData
	fieldMode
	fieldURL
	fieldWarnings
	fieldValidIn
	fieldWHATWG
	fieldInputBase64
	numFields
)

// parseFields are the keys of parse's JSON objects, in their order.
var parseFields = [numFields]string{
	"input", "valid", "errors", "scheme", "user", "password", "host", "port",
	"effective_port", "url_path", "scheme_specific_part", "authority", "userinfo",
	"path", "query", "fragment", "scheme_data", "mode", "url", "warnings",
	"valid_in", "whatwg", "input_base64",
}

// fieldSet is a set of parseFields, one bit each (--fields).
type fieldSet uint32

// allFields is every field: parse without --fields.
const allFields = fieldSet(1)<<numFields - 1

// has reports whether the set holds the field named name (a key of
// parseFields, or not in the set).
func (s fieldSet) has(name string) bool {
	if s == allFields {
		return true
	}
	i := slices.Index(parseFields[:], name)
	return i >= 0 && s&(1<<i) != 0
}

// selectFields reads --fields: allFields when the list is empty.
func selectFields(list string) (fieldSet, error) {
	if list == "" {
		return allFields, nil
	}
	var only fieldSet
	for f := range strings.SplitSeq(list, ",") {
		f = strings.TrimSpace(f)
		i := slices.Index(parseFields[:], f)
		if i < 0 {
			return 0, fmt.Errorf("unknown field %q in --fields (want some of %s)", f, strings.Join(parseFields[:], ","))
		}
		only |= 1 << i
	}
	return only, nil
}

// parse fills r with the result of parsing s in mode m.
func (r *parsed) parse(s string, m urlkit.Mode) {
	*r = parsed{input: s, mode: m}
	r.u, r.warnings, r.err = urlkit.ParseMode(s, m)
	if m == urlkit.WHATWG {
		r.warnings = whatwgWarnings(s)
	}
	if r.err != nil {
		r.errs, r.errTotal = urlkit.CheckLimit(s, m, maxErrorsListed)
		if other, ok := validElsewhere(s, m, false); ok {
			r.validIn = other.String()
		}
	}
}

// appendJSON appends the result with the keys of CLI.md, in its order,
// then urlkit's additions (mode, url, warnings). The scheme view's parts
// are listed into *parts, which the caller keeps for the next URL.
func (r *parsed) appendJSON(b []byte, parts *[]schemedata.Part) []byte {
	// Room for the input repeated in six members (input, url, path,
	// ...), so that a long line is not copied again at every doubling.
	b = slices.Grow(b, 6*len(r.input)+512)
	o := jsonRecord{b: b, only: r.only}
	o.begin()
	// Most inputs need no escaping: then neither do their parts, which
	// are copied as they are.
	inputPlain := plainPrefix(r.input) == len(r.input)
	o.strPlain(fieldInput, r.input, inputPlain)
	o.boolean(fieldValid, r.err == nil)
	if o.key(fieldErrors) {
		o.b = appendOffsetMessages(o.b, len(r.errs), func(i int) (int, string) { return r.errs[i].Offset, r.errs[i].Rule })
		if more := r.errTotal - len(r.errs); more > 0 {
			o.b = append(o.b, `,"errors_omitted":`...) // with errors, --fields or not
			o.b = strconv.AppendInt(o.b, int64(more), 10)
		}
	}
	u := &r.u
	ok := r.err == nil
	// For a URL parsed as written, String and the composite parts below
	// are slices of the text parsed (no string built).
	var text string
	plain := false
	if ok {
		text = u.String()
		if text == r.input {
			plain = inputPlain
		} else {
			plain = plainPrefix(text) == len(text)
		}
	}
	o.optStrPlain(fieldScheme, u.SchemeName(), ok && u.Scheme != "", plain)
	o.optStrPlain(fieldUser, u.User, ok && u.HasUser, plain)
	o.optStrPlain(fieldPassword, u.Password, ok && u.HasPassword, plain)
	o.optStrPlain(fieldHost, u.Host, ok && u.HasAuthority, plain)
	o.optStrPlain(fieldPort, u.Port, ok && u.HasPort, plain)
	port, hasPort := u.EffectivePort()
	o.optInt(fieldEffectivePort, port, ok && hasPort)
	urlPath, hasURLPath := u.URLPath()
	o.optStrPlain(fieldURLPath, urlPath, ok && hasURLPath, plain)
	o.optStrPlain(fieldSchemeSpecificPart, u.SchemeSpecificPart(), ok, plain)
	auth, hasAuth := u.Authority()
	o.optStrPlain(fieldAuthority, auth, ok && hasAuth, plain)
	info, hasInfo := userinfo(u)
	o.optStrPlain(fieldUserinfo, info, ok && hasInfo, plain)
	o.optStrPlain(fieldPath, u.Path, ok, plain)
	o.optStrPlain(fieldQuery, u.Query, ok && u.HasQuery, plain)
	o.optStrPlain(fieldFragment, u.Fragment, ok && u.HasFragment, plain)
	if o.key(fieldSchemeData) {
		if ok {
			o.b = appendSchemeData(o.b, parts, u, r.mode)
		} else {
			o.b = append(o.b, "null"...)
		}
	}
	o.strPlain(fieldMode, r.mode.String(), true) // a mode's name needs no escaping
	o.optStrPlain(fieldURL, text, ok, plain)
	if o.key(fieldWarnings) {
		o.b = appendOffsetMessages(o.b, len(r.warnings), func(i int) (int, string) { return r.warnings[i].Offset, r.warnings[i].Message })
	}
	if r.err != nil {
		o.optStr(fieldValidIn, r.validIn, r.validIn != "")
	}
	if r.mode == urlkit.WHATWG && o.key(fieldWHATWG) {
		if ok {
			o.b = appendWHATWG(o.b, u)
		} else {
			o.b = append(o.b, "null"...)
		}
	}
	if !inputPlain && !utf8.ValidString(r.input) {
		o.str(fieldInputBase64, base64.StdEncoding.EncodeToString([]byte(r.input)))
	}
	o.end()
	return o.b
}

// appendText appends the result as aligned "key value" lines. The
// scheme view's parts are listed into *parts, which the caller keeps for
// the next URL.
func (r *parsed) appendText(b []byte, parts *[]schemedata.Part) []byte {
	t := textRecord{b: b, only: r.only}
	t.line("input", printable(r.input))
	if r.err != nil {
		t.line("valid", "no")
		for i, e := range r.errs {
			if i == maxErrorsShown {
				t.line("error", fmt.Sprintf("and %d more", r.errTotal-i))
				break
			}
			if t.key("error") {
				t.b = append(t.b, "offset "...)
				t.b = strconv.AppendInt(t.b, int64(e.Offset), 10)
				t.b = append(append(append(t.b, ": "...), e.Rule...), '\n')
			}
		}
		if r.validIn != "" {
			t.line("valid_in", r.validIn)
		}
		return t.b
	}
	u := &r.u
	t.line("valid", "yes")
	if r.mode == urlkit.Lenient || r.mode == urlkit.WHATWG || len(r.warnings) > 0 {
		t.line("url", u.String())
	}
	for _, w := range r.warnings {
		t.line(warningLabel(r.mode), w.String())
	}
	t.opt("scheme", u.SchemeName(), u.Scheme != "")
	t.opt("user", u.User, u.HasUser)
	t.opt("password", u.Password, u.HasPassword)
	t.opt("host", u.Host, u.HasAuthority)
	t.opt("port", u.Port, u.HasPort)
	if p, ok := u.EffectivePort(); !ok {
		t.line("effective_port", none)
	} else if t.key("effective_port") {
		t.b = append(strconv.AppendInt(t.b, int64(p), 10), '\n')
	}
	up, ok := u.URLPath()
	t.opt("url_path", up, ok)
	t.opt("scheme_specific_part", u.SchemeSpecificPart(), true)
	a, ok := u.Authority()
	t.opt("authority", a, ok)
	ui, ok := userinfo(u)
	t.opt("userinfo", ui, ok)
	t.opt("path", u.Path, true)
	t.opt("query", u.Query, u.HasQuery)
	t.opt("fragment", u.Fragment, u.HasFragment)
	if mark := len(t.b); t.key("scheme_data") {
		at := len(t.b)
		if t.b = appendSchemeData(t.b, parts, u, r.mode); string(t.b[at:]) == "null" {
			t.b = t.b[:mark] // no view: no line
		} else {
			t.b = append(t.b, '\n')
		}
	}
	return t.b
}

// textRecord builds parse's text output for one URL: a "key value" line
// per component, the values aligned, appended to b.
type textRecord struct {
	b    []byte
	only fieldSet // the fields to print (a line's field: fieldOfLine)
}

// none is the value of an absent component in the text output.
const none = "(none)"

// key appends k and the spaces that align the value, and reports whether
// the line is to be printed (--fields); the caller then appends the
// value and the newline.
func (t *textRecord) key(k string) bool {
	if !t.only.has(fieldOfLine(k)) {
		return false
	}
	// "%-21s " without fmt: the keys are ASCII.
	const spaces = "                      "
	t.b = append(t.b, k...)
	t.b = append(t.b, spaces[:max(22-len(k), 1)]...)
	return true
}

// line appends the line "k v".
func (t *textRecord) line(k, v string) {
	if t.key(k) {
		t.b = append(append(t.b, v...), '\n')
	}
}

// opt appends the line of a component: v, (none) when it is absent, ""
// when it is empty.
func (t *textRecord) opt(k, v string, present bool) {
	switch {
	case !present:
		v = none
	case v == "":
		v = `""`
	}
	t.line(k, v)
}

// fieldOfLine is the field (a JSON key) that --fields names a text line
// by: a line of each error, repair or warning by its list.
func fieldOfLine(k string) string {
	switch k {
	case "error":
		return "errors"
	case "repaired", "warning":
		return "warnings"
	}
	return k
}

// printable returns s, or s Go-quoted when it holds control characters
// that would break the one-value-per-line layout, or bytes that are not
// UTF-8.
func printable(s string) string {
	if !utf8.ValidString(s) {
		return strconv.Quote(s)
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return strconv.Quote(s)
		}
	}
	return s
}

// warningLabel names a warning in the text output: the lenient mode's
// warnings are repairs; in the strict modes a warning says what was
// removed before parsing (a "URL:" prefix).
func warningLabel(m urlkit.Mode) string {
	if m == urlkit.Lenient {
		return "repaired"
	}
	return "warning"
}

// userinfo returns RFC 3986's userinfo as written (the user, and ":" and
// the password when there is one) and whether the URL has one.
func userinfo(u *urlkit.URL) (string, bool) {
	if !u.HasUser {
		return "", false
	}
	if !u.HasPassword {
		return u.User, true
	}
	return u.User + ":" + u.Password, true
}
