package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/edit"
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

// whatwgComponents maps edit's component names, trurl's and the URL
// API's, to the API's attribute.
var whatwgComponents = map[string]string{
	"url": "href", "href": "href", "scheme": "protocol", "protocol": "protocol",
	"user": "username", "username": "username", "password": "password",
	"host": "host", "hostname": "hostname", "port": "port",
	"path": "pathname", "pathname": "pathname", "query": "search", "search": "search",
	"fragment": "hash", "hash": "hash", "origin": "origin",
}

// runEditWHATWG is edit --mode whatwg: each URL is read by the URL
// Standard's parser, --set runs the standard's setters (the URL API's
// attributes, under their names or trurl's), --redirect resolves as a
// browser does, and --get's {component} is the API's getter; the URL
// written is the href.
func runEditWHATWG(ctx context.Context, st *Streams, c *editConfig, args []string) int {
	usage := func(format string, a ...any) int {
		fmt.Fprintf(st.Err, "urlkit edit: %s\nrun 'urlkit edit -h' for help\n", fmt.Sprintf(format, a...))
		return exitUsage
	}
	if len(c.appends)+len(c.iterates)+len(c.trims)+len(c.replaces) > 0 || c.json || c.hasQsep || c.sortQuery || c.urlencode ||
		c.parse != (edit.Options{}) || c.out != (edit.Out{}) {
		return usage("--mode whatwg takes --set, --get, --redirect, --url, --url-file and --verify only")
	}
	type setting struct{ attr, value string }
	var sets []setting
	for _, s := range c.sets {
		name, value, ok := strings.Cut(s, "=")
		name = strings.TrimSuffix(strings.TrimSuffix(name, ":"), "?")
		attr := whatwgComponents[name]
		if !ok || attr == "" || attr == "origin" {
			return usage("bad --set %q in --mode whatwg: want COMPONENT=VALUE, COMPONENT one of the URL API's setters (href, protocol, username, password, host, hostname, port, pathname, search, hash) or trurl's names for them", s)
		}
		sets = append(sets, setting{attr, value})
	}
	render := func(u *whatwg.URL) string { return u.Href }
	if c.hasFormat {
		format := c.format
		render = func(u *whatwg.URL) string {
			var b strings.Builder
			rest := format
			for {
				i := strings.IndexByte(rest, '{')
				j := strings.IndexByte(rest[max(i, 0):], '}')
				if i < 0 || j < 0 {
					b.WriteString(rest)
					return b.String()
				}
				name := rest[i+1 : i+j]
				b.WriteString(rest[:i])
				if attr := whatwgComponents[name]; attr != "" {
					v, _ := u.Get(attr) // attr is a name of whatwgComponents, all the API's
					b.WriteString(v)
				} else {
					b.WriteString(rest[i : i+j+1])
				}
				rest = rest[i+j+1:]
			}
		}
	}
	urls := append(append([]string(nil), c.urls...), args...)
	if c.hasFile {
		if c.urlFile != "-" {
			data, err := os.ReadFile(c.urlFile)
			if err != nil {
				fmt.Fprintf(st.Err, "urlkit edit: %v\n", err)
				return exitFail
			}
			urls = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		} else {
			urls = nil // standard input
		}
	}
	out := bufio.NewWriter(st.Out)
	defer out.Flush()
	status := eachInputJobs(ctx, st, out, urls, 1, false, func() lineJob {
		return func(_ int, s string, out *bufio.Writer, errw io.Writer) int {
			u, err := whatwg.Parse(s, nil)
			if err == nil && c.hasRedirect {
				u, err = whatwg.Parse(c.redirect, &u)
			}
			if err != nil {
				out.Flush()
				printErr(errw, &urlkit.Error{Op: "edit", Input: st.redact(s), Offset: errOffset(err), Err: urlkit.ErrSchemeSyntax, Rule: whatwgRule(err)})
				if c.verify {
					return exitFail
				}
				return exitOK
			}
			for _, set := range sets {
				if !u.Set(set.attr, set.value) && !c.quiet {
					out.Flush()
					fmt.Fprintf(errw, "urlkit edit: note: %s: the URL Standard's %s setter leaves the URL unchanged for %q\n", st.redact(u.Href), set.attr, set.value)
				}
			}
			out.WriteString(st.redact(render(&u)))
			out.WriteByte('\n')
			return exitOK
		}
	})
	return status
}
