package scheme

import (
	"errors"
	"fmt"
	"runtime"
	"strings"

	"github.com/urlkit/urlkit"
)

// File is the view of a file URL (RFC 1738 3.10):
//
//	file://<host>/<path>
//
// The path is a hierarchical directory path, <directory>/.../<name>. The
// host "localhost" or "" means the machine interpreting the URL; any
// other host names a machine whose files are reached by no Internet
// protocol the URL names.
type File struct {
	Host string // as written; "" or "localhost" for this machine
	Path string // decoded; starts with "/"

	// at holds where the host and the path are written in the URL's
	// String form.
	at struct{ Host, Path Span }
}

// parseFile returns the view of a file URL. Each segment is decoded after
// the path is split at its unencoded "/", so a segment holding %2F (a
// file name with a "/" in it, which no hierarchical file system has) is
// an error. A URL without an authority (file:/path, which RFC 3986-era
// software writes) is read as one with an empty host.
func parseFile(u *urlkit.URL) (*File, error) {
	f := new(File)
	if err := f.read(u); err != nil {
		return nil, err
	}
	return f, nil
}

// read fills f with the view of u.
func (f *File) read(u *urlkit.URL) error {
	p, off := "", layoutOf(u).path
	if u.HasAuthority {
		var ok bool
		switch _, off, ok = urlPath(u); {
		case ok: // "/" and the url-path, the query rejoined
			p, off = u.Path, off-1
			if u.HasQuery {
				p += "?" + u.Query
			}
		case u.HasQuery:
			return syntaxError(u, off-1, "a file URL needs '/' and a path after the host (RFC 1738 3.10)")
		default:
			p = "/" // file://host: draft-06's fileurl makes the fpath optional
		}
	} else {
		p = u.SchemeSpecificPart()
		if !strings.HasPrefix(p, "/") {
			return syntaxError(u, off, "a file URL's path starts with '/' (RFC 1738 3.10)")
		}
	}
	if k := indexEscape(p, '/'); k >= 0 {
		return syntaxError(u, off+k, "%2F in a file path: a file or directory name cannot hold '/' (RFC 1738 3.10: the path is hierarchical)")
	}
	*f = File{Host: u.Host, Path: unescape(p)}
	o := u.Offsets()
	f.at.Host = Span{o.Host, o.Host + len(u.Host)}
	f.at.Path = Span{o.Path, o.Fragment} // the path and a "?" part: fsegment data
	if u.HasFragment {
		f.at.Path.End-- // the "#"
	}
	return nil
}

// appendParts appends host, path and local_path (null when the file is
// not on this machine or no file name can hold its path).
func (f *File) appendParts(dst []part) []part {
	var local value
	if f.IsLocal() { // else LocalPath's error, built only to be dropped
		if p, err := f.LocalPath(); err == nil {
			local = str(p)
		}
	}
	return append(dst, kv("host", str(f.Host)), kv("path", str(f.Path)), kv("local_path", local))
}

// URL builds "file://", the host and the path, each segment encoded for
// fsegment (";" becomes %3B).
func (f *File) URL() *urlkit.URL {
	u := &urlkit.URL{Scheme: "file", HasAuthority: true, Host: f.Host}
	segs := strings.Split(strings.TrimPrefix(f.Path, "/"), "/")
	for i, s := range segs {
		segs[i] = escape(s, &keepFseg)
	}
	setPath(u, "/"+strings.Join(segs, "/"))
	return u
}

// IsLocal reports whether the host is "" or "localhost" (in any case):
// the machine interpreting the URL.
func (f *File) IsLocal() bool { return f.Host == "" || strings.EqualFold(f.Host, "localhost") }

// LocalPath converts the URL's path to a file name of this operating
// system: on Windows "/C:/dir/f" becomes `C:\dir\f`; elsewhere the path is
// the file name. It fails for another host and for names the system
// cannot hold (NUL; on Windows a "\" inside a name).
func (f *File) LocalPath() (string, error) { return localPath(runtime.GOOS, f) }

func localPath(goos string, f *File) (string, error) {
	if !f.IsLocal() {
		return "", errors.New("scheme: file URL names host " + quote(f.Host) + ", not this machine (RFC 1738 3.10: only \"localhost\" or an empty host is this machine)")
	}
	p := f.Path
	if strings.IndexByte(p, 0) >= 0 {
		return "", errors.New("scheme: file path holds a NUL byte, which no file name can hold")
	}
	if goos != "windows" {
		return p, nil
	}
	if strings.IndexByte(p, '\\') >= 0 {
		return "", errors.New("scheme: file path holds '\\', which is the separator of Windows file names")
	}
	// "/C:/dir" or "/C|/dir" (the old form) names drive C.
	if len(p) >= 3 && p[0] == '/' && isLetter(p[1]) && (p[2] == ':' || p[2] == '|') && (len(p) == 3 || p[3] == '/') {
		p = p[1:2] + ":" + p[3:]
		if len(p) == 2 {
			p += "/"
		}
	}
	return strings.ReplaceAll(p, "/", `\`), nil
}

// FileFromPath returns the view of a file URL for an absolute file name
// of this operating system, with an empty host (this machine). On Windows
// `C:\dir\f` becomes "/C:/dir/f" and a UNC name `\\server\share\f` the
// host "server" and the path "/share/f".
func FileFromPath(name string) (*File, error) { return fileFromPath(runtime.GOOS, name) }

func fileFromPath(goos, name string) (*File, error) {
	if goos != "windows" {
		if !strings.HasPrefix(name, "/") {
			return nil, errors.New("scheme: " + quote(name) + " is not an absolute file name")
		}
		return &File{Path: name}, nil
	}
	p := strings.ReplaceAll(name, `\`, "/")
	switch {
	case strings.HasPrefix(p, "//"):
		host, rest, _ := strings.Cut(p[2:], "/")
		if host == "" {
			return nil, errors.New("scheme: " + quote(name) + " names no server")
		}
		return &File{Host: host, Path: "/" + rest}, nil
	case len(p) >= 3 && isLetter(p[0]) && p[1] == ':' && p[2] == '/':
		return &File{Path: "/" + p}, nil
	}
	return nil, errors.New("scheme: " + quote(name) + " is not an absolute file name (a drive letter or a UNC name)")
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// FileFromVMS maps a VMS file specification onto a file URL the way RFC
// 1738 3.10's example does:
//
//	DISK$USER:[MY.NOTES]NOTE123456.TXT on vms.host.edu
//	file://vms.host.edu/disk$user/my/notes/note123456.txt
//
// The device becomes the first segment, each directory of the bracketed
// list a segment, and the file name (with its type and any ";version")
// the last one, all in lower case (VMS names are case-insensitive). The
// RFC's example URL reads "note12345.txt": its text dropped a digit of the
// name. "[000000]" (the device's top directory) adds no segment; a
// relative directory ("[.SUB]") and a node name ("NODE::") are refused.
func FileFromVMS(host, spec string) (*File, error) {
	if strings.Contains(spec, "::") {
		return nil, errors.New("scheme: VMS node names (NODE::) have no file URL form; give the node as the host")
	}
	var segs []string
	rest := spec
	if dev, after, ok := strings.Cut(rest, ":"); ok {
		if dev == "" || strings.ContainsAny(dev, "[]<>/") {
			return nil, errors.New("scheme: invalid VMS device in " + quote(spec))
		}
		segs, rest = append(segs, dev), after
	}
	if rest != "" && (rest[0] == '[' || rest[0] == '<') {
		closer := "]"
		if rest[0] == '<' {
			closer = ">"
		}
		end := strings.Index(rest, closer)
		if end < 0 {
			return nil, errors.New("scheme: unclosed VMS directory in " + quote(spec))
		}
		dirs := rest[1:end]
		if strings.HasPrefix(dirs, ".") || strings.HasPrefix(dirs, "-") {
			return nil, errors.New("scheme: relative VMS directory in " + quote(spec) + " has no file URL form")
		}
		if dirs != "000000" && dirs != "" {
			for _, d := range strings.Split(dirs, ".") {
				if d == "" {
					return nil, errors.New("scheme: empty VMS directory name in " + quote(spec))
				}
				segs = append(segs, d)
			}
		}
		rest = rest[end+1:]
	}
	if rest == "" || strings.ContainsAny(rest, "[]<>:/") {
		return nil, errors.New("scheme: invalid VMS file name in " + quote(spec))
	}
	segs = append(segs, rest)
	return &File{Host: host, Path: "/" + strings.ToLower(strings.Join(segs, "/"))}, nil
}

// VMSPath maps the URL's path back to a VMS file specification, the
// inverse of FileFromVMS: the first segment is the device, the last the
// file name, the others the directories ("[000000]" when there are none).
// The result is upper case. It fails for a path of fewer than two
// segments and for names VMS cannot hold in their place ("." in a
// directory name, brackets or ":" anywhere).
func (f *File) VMSPath() (string, error) {
	segs := strings.Split(strings.TrimPrefix(f.Path, "/"), "/")
	if len(segs) < 2 {
		return "", errors.New("scheme: a VMS file URL path is /device/directory.../name")
	}
	for i, s := range segs {
		if s == "" || strings.ContainsAny(s, "[]<>:") || (i > 0 && i < len(segs)-1 && strings.Contains(s, ".")) {
			return "", errors.New("scheme: " + quote(s) + " cannot be a VMS device, directory or file name in its place")
		}
	}
	dirs := "000000"
	if len(segs) > 2 {
		dirs = strings.Join(segs[1:len(segs)-1], ".")
	}
	return strings.ToUpper(segs[0] + ":[" + dirs + "]" + segs[len(segs)-1]), nil
}

func quote(s string) string { return "\"" + s + "\"" }

func init() {
	register(&unit{parse: view(parseFile), parts: func(dst []part, u *urlkit.URL, _ urlkit.Mode) ([]part, error) {
		var f File // on the stack
		if err := f.read(u); err != nil {
			return dst, err
		}
		return f.appendParts(dst), nil
	}, concerns: fileConcerns, plan: func(v View, p *planner) { p.file(v.(*File)) }}, "file")
}

// fileConcerns: no file name can hold NUL.
func fileConcerns(v View, c *concernList) {
	if f, _ := v.(*File); f != nil {
		c.scanSpan(f.at.Path, ctlNUL, "file name")
		return
	}
	c.scan(c.u.Path, c.l.path, ctlNUL, "file name")
	c.scan(c.u.Query, c.l.query, ctlNUL, "file name")
}

func (p *planner) file(f *File) {
	local := File{Path: f.Path}
	name, err := local.LocalPath()
	if err != nil {
		p.unsupported(f.at.Path.At, strings.TrimPrefix(err.Error(), "scheme: "))
		return
	}
	p.open(name)
	switch {
	case !f.IsLocal():
		open := &p.plan.Steps[len(p.plan.Steps)-1]
		open.When.Text = fmt.Sprintf("the host %q is this machine's name (or its first label)", f.Host)
		p.comment("a file URL names no protocol to reach another machine's files (RFC 1738 3.10): for another host the access fails (get --file-ftp fetches it over FTP, as early clients did)")
	case f.Host == "":
		p.comment("an empty host means the machine interpreting the URL (RFC 1738 3.10)")
	default:
		p.comment("host %q means the machine interpreting the URL (RFC 1738 3.10)", f.Host)
	}
}
