package main

// get --netrc / --netrc-file: the login of ftp(1)'s and curl's netrc file
// (machine, login, password, default; account and macdef are read and
// ignored), for ftp and http URLs that name no user.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

// netrcOptions are the netrc flags.
type netrcOptions struct {
	use  bool   // --netrc: $NETRC, else ~/.netrc
	file string // --netrc-file
}

func (n *netrcOptions) flags(fs *flag.FlagSet) {
	fs.BoolVar(&n.use, "netrc", false, "log in to ftp and http servers as ~/.netrc (or $NETRC) says, for URLs without a user")
	fs.StringVar(&n.file, "netrc-file", "", "like --netrc, with the netrc `FILE`")
}

// netrcHelp is the part of get -h about netrc.
const netrcHelp = `Credentials: --netrc reads ~/.netrc (or $NETRC), --netrc-file FILE reads
FILE, in ftp(1)'s format: "machine HOST login USER password PASS" entries
and a "default" entry for every other host. They are used for ftp, http
and https URLs that name no user, unless --user gives one (as in curl).
As ftp(1) does, a netrc file that holds a password and that the group or
others may read is refused.`

// netrcEntry is one machine (or the default) of a netrc file.
type netrcEntry struct {
	machine  string // "" for default
	login    string
	password string
}

// maxNetrc bounds the netrc file read.
const maxNetrc = 1 << 20

// errNetrc is the failure of a netrc file.
var errNetrc = errors.New("netrc")

// loadNetrc reads the netrc file the options name (nil when none is
// asked for), refusing one that others may read.
func (n *netrcOptions) load(getenv func(string) string) ([]netrcEntry, error) {
	path := n.file
	if path == "" {
		if !n.use {
			return nil, nil
		}
		if path = getenv("NETRC"); path == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return nil, fmt.Errorf("%w: no home directory for ~/.netrc: %v", errNetrc, err)
			}
			path = filepath.Join(home, ".netrc")
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errNetrc, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errNetrc, err)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxNetrc+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", errNetrc, path, err)
	}
	if len(data) > maxNetrc {
		return nil, fmt.Errorf("%w: %s: larger than %d bytes", errNetrc, path, maxNetrc)
	}
	entries, err := parseNetrc(string(data))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", errNetrc, path, err)
	}
	for _, e := range entries {
		if e.password != "" && fi.Mode().Perm()&0o077 != 0 {
			return nil, fmt.Errorf("%w: %s holds a password and may be read by others (mode %04o): chmod 600 it, as ftp(1) requires", errNetrc, path, fi.Mode().Perm())
		}
	}
	return entries, nil
}

// parseNetrc parses the tokens of a netrc file: words separated by
// blanks and line ends, or "double-quoted" with \ escapes. A macdef's
// body (up to an empty line) is skipped.
func parseNetrc(s string) ([]netrcEntry, error) {
	var entries []netrcEntry
	var cur *netrcEntry
	pos := 0
	next := func() (string, bool, error) {
		for pos < len(s) && strings.IndexByte(" \t\r\n", s[pos]) >= 0 {
			pos++
		}
		if pos >= len(s) {
			return "", false, nil
		}
		if s[pos] == '"' {
			var b strings.Builder
			start := pos
			for pos++; pos < len(s); pos++ {
				switch c := s[pos]; {
				case c == '"':
					pos++
					return b.String(), true, nil
				case c == '\\' && pos+1 < len(s):
					pos++
					b.WriteByte(s[pos])
				default:
					b.WriteByte(c)
				}
			}
			return "", false, fmt.Errorf("offset %d: a quoted word without its closing \"", start)
		}
		start := pos
		for pos < len(s) && strings.IndexByte(" \t\r\n", s[pos]) < 0 {
			pos++
		}
		return s[start:pos], true, nil
	}
	for {
		at := pos
		tok, ok, err := next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return entries, nil
		}
		switch tok {
		case "machine", "default":
			entries = append(entries, netrcEntry{})
			cur = &entries[len(entries)-1]
			if tok == "machine" {
				name, ok, err := next()
				if err != nil || !ok {
					return nil, fmt.Errorf("offset %d: machine without a name", at)
				}
				cur.machine = name
			}
		case "login", "password", "account":
			val, ok, err := next()
			if err != nil || !ok {
				return nil, fmt.Errorf("offset %d: %s without a value", at, tok)
			}
			if cur == nil {
				return nil, fmt.Errorf("offset %d: %s before any machine or default", at, tok)
			}
			switch tok {
			case "login":
				cur.login = val
			case "password":
				cur.password = val
			}
		case "macdef":
			if _, ok, err := next(); err != nil || !ok {
				return nil, fmt.Errorf("offset %d: macdef without a name", at)
			}
			if i := strings.Index(s[pos:], "\n\n"); i >= 0 {
				pos += i + 2
			} else {
				pos = len(s)
			}
		default:
			return nil, fmt.Errorf("offset %d: unknown word %q (want machine, default, login, password, account or macdef)", at, clip(tok))
		}
	}
}

// netrcLogin returns the entry for host: its machine, else the default.
func netrcLogin(entries []netrcEntry, host string) (netrcEntry, bool) {
	for _, e := range entries {
		if e.machine != "" && strings.EqualFold(e.machine, host) {
			return e, true
		}
	}
	for _, e := range entries {
		if e.machine == "" {
			return e, true
		}
	}
	return netrcEntry{}, false
}

// applyNetrc gives u the netrc login of its host (see applyLogin).
func applyNetrc(st *Streams, entries []netrcEntry, u *urlkit.URL) error {
	if len(entries) == 0 || u.HasUser || !takesLogin(u) {
		return nil
	}
	e, ok := netrcLogin(entries, u.Hostname())
	if !ok {
		return nil
	}
	return applyLogin(st, e.login, e.password, u)
}

// takesLogin reports whether u is a URL that --user and the netrc file
// give a login: one whose access logs in with the URL's user and
// password (the registry's Credentials: ftp, http, https).
func takesLogin(u *urlkit.URL) bool {
	in, _ := scheme.Known(u.SchemeName())
	return in.Credentials
}

// applyLogin gives u the login user[:password] when it is an ftp or
// http(s) URL without a user; the password joins the secrets no message
// shows.
func applyLogin(st *Streams, user, password string, u *urlkit.URL) error {
	if user == "" || u.HasUser || !takesLogin(u) {
		return nil
	}
	v := *u
	if err := v.SetUser(user); err != nil {
		return err
	}
	if password != "" {
		if st.secrets != nil {
			st.secrets.Add(password)
		}
		if err := v.SetPassword(password); err != nil {
			return err
		}
		if st.secrets != nil {
			st.secrets.Add(v.Password)
		}
	}
	*u = v
	return nil
}
