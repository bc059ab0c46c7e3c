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
	"github.com/urlkit/urlkit/scheme"
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
--json, errors_omitted counts the rest) and make the exit status 1; valid_in, present for them, names the mode that takes the URL
("valid in --mode rfc3986"), or is null.

--fields F,... prints only the components named (the JSON keys below), in
the usual order: --fields host,port.

The input is the line as given. JSON strings cannot hold bytes that are
not UTF-8: in "input" they are written as U+FFFD, and the object then has
"input_base64", the exact bytes in standard base64 (RFC 4648 4), so that
no input is lost. Text output writes such an input Go-quoted ("\xff").

JSON keys: ` + strings.Join(parseFields[:], ", ") + `.

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
				var buf []byte          // reused: one record's JSON
				var parts []scheme.Part // reused: its scheme_data's parts
				var r parsed            // reused: a fresh one per line would be a heap object each
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
						r.human(out)
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
	fieldInputBase64
	numFields
)

// parseFields are the keys of parse's JSON objects, in their order.
var parseFields = [numFields]string{
	"input", "valid", "errors", "scheme", "user", "password", "host", "port",
	"effective_port", "url_path", "scheme_specific_part", "authority", "userinfo",
	"path", "query", "fragment", "scheme_data", "mode", "url", "warnings",
	"valid_in", "input_base64",
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
func (r *parsed) appendJSON(b []byte, parts *[]scheme.Part) []byte {
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
	info, hasInfo := u.Userinfo()
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
	if !inputPlain && !utf8.ValidString(r.input) {
		o.str(fieldInputBase64, base64.StdEncoding.EncodeToString([]byte(r.input)))
	}
	o.end()
	return o.b
}

// human prints the result as aligned "key value" lines.
func (r *parsed) human(w *bufio.Writer) {
	line := func(k, v string) {
		field := k
		switch k {
		case "error":
			field = "errors"
		case "repaired", "warning":
			field = "warnings"
		}
		if r.only.has(field) {
			// "%-21s %s\n" without fmt: the keys are ASCII.
			const spaces = "                      "
			w.WriteString(k)
			w.WriteString(spaces[:max(22-len(k), 1)])
			w.WriteString(v)
			w.WriteByte('\n')
		}
	}
	show := func(v string, ok bool) string {
		switch {
		case !ok:
			return "(none)"
		case v == "":
			return `""`
		}
		return v
	}
	line("input", printable(r.input))
	if r.err != nil {
		line("valid", "no")
		for i, e := range r.errs {
			if i == maxErrorsShown {
				line("error", fmt.Sprintf("and %d more", r.errTotal-i))
				break
			}
			line("error", "offset "+strconv.Itoa(e.Offset)+": "+e.Rule)
		}
		if r.validIn != "" {
			line("valid_in", r.validIn)
		}
		return
	}
	u := &r.u
	line("valid", "yes")
	if r.mode == urlkit.Lenient || len(r.warnings) > 0 {
		line("url", u.String())
	}
	for _, w := range r.warnings {
		line(warningLabel(r.mode), w.String())
	}
	line("scheme", show(u.SchemeName(), u.Scheme != ""))
	line("user", show(u.User, u.HasUser))
	line("password", show(u.Password, u.HasPassword))
	line("host", show(u.Host, u.HasAuthority))
	line("port", show(u.Port, u.HasPort))
	p, ok := u.EffectivePort()
	line("effective_port", show(strconv.Itoa(p), ok))
	up, ok := u.URLPath()
	line("url_path", show(up, ok))
	line("scheme_specific_part", show(u.SchemeSpecificPart(), true))
	a, ok := u.Authority()
	line("authority", show(a, ok))
	ui, ok := u.Userinfo()
	line("userinfo", show(ui, ok))
	line("path", show(u.Path, true))
	line("query", show(u.Query, u.HasQuery))
	line("fragment", show(u.Fragment, u.HasFragment))
	if d := schemeData(u, r.mode); string(d) != "null" {
		line("scheme_data", strings.TrimSpace(string(d)))
	}
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
