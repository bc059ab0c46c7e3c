package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/whatwg"
)

// The WHATWG mode's additions to the commands: the standard's validation
// errors (which do not stop its parser) as warnings, its components in
// parse --json, and resolve --rule whatwg.

// whatwgWarnings returns the URL Standard's validation errors of s,
// named as the standard names them, at their offsets in s: check and
// parse print them as warnings, while the URL is as a browser reads it.
func whatwgWarnings(s string) []urlkit.Warning {
	_, errs, _ := whatwg.Check(s, nil)
	var w []urlkit.Warning
	for _, e := range errs {
		w = append(w, urlkit.Warning{Offset: e.Offset, Message: "validation error " + e.Name + " (URL Standard)"})
	}
	return w
}

// appendWHATWG appends the standard's components of u (the API's
// getters: href, protocol, username, password, host, hostname, port,
// pathname, search, hash, origin) as a JSON object.
func appendWHATWG(b []byte, u *urlkit.URL) []byte {
	w, err := whatwg.Parse(u.String(), nil)
	if err != nil {
		return append(b, "null"...)
	}
	b = append(b, '{')
	for i, kv := range [...][2]string{
		{"href", w.Href}, {"protocol", w.Protocol()}, {"username", w.Username()},
		{"password", w.Password()}, {"host", w.Host()}, {"hostname", w.Hostname()},
		{"port", w.PortString()}, {"pathname", w.Pathname()}, {"search", w.Search()},
		{"hash", w.Hash()}, {"origin", w.Origin()},
	} {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(append(appendJSONString(b, kv[0]), ':'), kv[1])
	}
	return append(b, '}')
}

// resolveWHATWG is resolve --rule whatwg: each reference is parsed by the
// URL Standard's parser against BASE, as a browser resolves an href; the
// reference is the text itself (the standard's parser reads any), so
// --mode does not apply to it.
func resolveWHATWG(ctx context.Context, st *Streams, args []string, jobs int) int {
	base, err := whatwg.Parse(args[0], nil)
	if err != nil {
		printErr(st.Err, &urlkit.Error{Op: "resolve", Input: st.redact(args[0]), Offset: errOffset(err), Err: urlkit.ErrSchemeSyntax, Rule: whatwgRule(err)})
		return exitFail
	}
	out := bufio.NewWriter(st.Out)
	defer out.Flush()
	return eachInputJobs(ctx, st, out, args[1:], jobs, true, func() lineJob {
		return func(_ int, s string, out *bufio.Writer, errw io.Writer) int {
			u, err := whatwg.Parse(s, &base)
			if err != nil {
				out.Flush()
				printErr(errw, &urlkit.Error{Op: "resolve", Input: st.redact(s), Offset: errOffset(err), Err: urlkit.ErrSchemeSyntax, Rule: whatwgRule(err)})
				out.WriteByte('\n')
				return exitFail
			}
			out.WriteString(u.Href)
			out.WriteByte('\n')
			return exitOK
		}
	})
}

func errOffset(err error) int {
	var e *whatwg.Error
	if errors.As(err, &e) {
		return e.Offset
	}
	return 0
}

func whatwgRule(err error) string {
	var e *whatwg.Error
	if errors.As(err, &e) {
		return fmt.Sprintf("validation error %s (URL Standard: failure)", e.Name)
	}
	return err.Error()
}
