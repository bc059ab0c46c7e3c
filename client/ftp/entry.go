package ftp

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/urlkit/urlkit/internal/wire"
)

// Mlsd starts a machine listing of dir (MLSD, RFC 3659 7): one line of
// facts per entry, read with ParseMLSD. An empty dir lists the working
// directory.
func (c *Conn) Mlsd(ctx context.Context, dir string) (*Listing, error) {
	return c.listing(ctx, "MLSD", dir)
}

// Entry is one entry of a parsed directory listing.
type Entry struct {
	Name string
	// Type is "file", "dir", "link" or "other" (unknown: "").
	Type string
	// Size in bytes, or -1 when not given.
	Size int64
	// Time is the modification time (UTC for MLSD; in LIST formats the
	// server's local time, read as UTC), zero when not given.
	Time time.Time
}

// ErrListLine is the error of a listing line that no parser reads.
var ErrListLine = errors.New("ftp: unrecognised listing line")

// ParseEntry parses a line of a listing in the format its command
// gives: "MLSD" (ParseMLSD), "LIST" (ParseList, now for the year a Unix
// listing omits) or "NLST" (a name alone). skip reports a line that
// names no entry: an empty line, the "total N" line of ls -l, and MLSD's
// "." and ".." (the directory itself and its parent); err one that no
// parser reads (ErrListLine).
func ParseEntry(format, line string, now time.Time) (e Entry, skip bool, err error) {
	switch format {
	case "MLSD":
		e, err = ParseMLSD(line)
	case "LIST":
		e, err = ParseList(line, now)
	default:
		e = Entry{Name: line, Size: -1}
	}
	if err != nil {
		skip = line == "" || strings.HasPrefix(line, "total ")
		return e, skip, err
	}
	skip = format == "MLSD" && e.Type == "dir" && (e.Name == "." || e.Name == "..")
	return e, skip, nil
}

// ParseMLSD parses an MLSD line (RFC 3659 7.2): "fact=value;...; name".
// The facts type, size (or sizd) and modify are read; the others skipped.
func ParseMLSD(line string) (Entry, error) {
	facts, name, ok := strings.Cut(line, " ")
	if !ok || name == "" {
		return Entry{}, fmt.Errorf("%w: MLSD line without a name: %q", ErrListLine, wire.Clip(line))
	}
	e := Entry{Name: name, Size: -1}
	for _, f := range strings.Split(facts, ";") {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			continue
		}
		switch strings.ToLower(k) {
		case "type":
			switch strings.ToLower(v) {
			case "file":
				e.Type = "file"
			case "dir", "cdir", "pdir":
				e.Type = "dir"
			case "os.unix=symlink", "os.unix=slink":
				e.Type = "link"
			default:
				e.Type = "other"
			}
		case "size", "sizd":
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
				e.Size = n
			}
		case "modify":
			if t, err := ParseTimeVal(v); err == nil {
				e.Time = t
			}
		}
	}
	return e, nil
}

// ParseList parses a LIST line in the two common formats: Unix "ls -l"
// ("-rw-r--r-- 1 ftp ftp 26 Nov 23 19:19 hello.txt", a year instead of
// the time for old files; "name -> target" for links) and DOS/IIS
// ("11-23-26  07:19PM  <DIR>  pub", "11-23-26 07:19PM 26 hello.txt").
// now chooses the year of a Unix date without one (the latest not after
// now plus a day). A "total N" line is ErrListLine.
func ParseList(line string, now time.Time) (Entry, error) {
	f := strings.Fields(line)
	if len(f) >= 4 && len(f[0]) == 8 && f[0][2] == '-' && f[0][5] == '-' {
		return parseDOS(line, f)
	}
	if len(f) >= 8 && len(f[0]) >= 10 && strings.IndexByte("-dlbcps", f[0][0]) >= 0 {
		return parseUnix(line, f, now)
	}
	return Entry{}, fmt.Errorf("%w: %q", ErrListLine, wire.Clip(line))
}

// rest returns line after its first n fields (the name, spaces kept).
func rest(line string, n int) string {
	s := line
	for range n {
		s = strings.TrimLeft(s, " \t")
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			return ""
		}
		s = s[i:]
	}
	if len(s) > 0 {
		s = s[1:] // the one separator before the name
	}
	return strings.TrimLeft(s, " ")
}

func parseDOS(line string, f []string) (Entry, error) {
	t, err := time.Parse("01-02-06 03:04PM", f[0]+" "+f[1])
	if err != nil {
		return Entry{}, fmt.Errorf("%w: DOS date %q %q", ErrListLine, f[0], f[1])
	}
	e := Entry{Name: rest(line, 3), Time: t, Size: -1}
	if f[2] == "<DIR>" {
		e.Type = "dir"
	} else if n, err := strconv.ParseInt(f[2], 10, 64); err == nil && n >= 0 {
		e.Type, e.Size = "file", n
	} else {
		return Entry{}, fmt.Errorf("%w: DOS size %q", ErrListLine, wire.Clip(f[2]))
	}
	if e.Name == "" {
		return Entry{}, fmt.Errorf("%w: DOS line without a name", ErrListLine)
	}
	return e, nil
}

func parseUnix(line string, f []string, now time.Time) (Entry, error) {
	e := Entry{Size: -1}
	switch f[0][0] {
	case '-':
		e.Type = "file"
	case 'd':
		e.Type = "dir"
	case 'l':
		e.Type = "link"
	default:
		e.Type = "other"
	}
	// Find the date: "Mon DD HH:MM" or "Mon DD YYYY", after the size.
	for i := 3; i+3 < len(f)+1 && i+2 < len(f); i++ {
		mon, err := time.Parse("Jan", f[i])
		if err != nil {
			continue
		}
		day, err := strconv.Atoi(f[i+1])
		if err != nil || day < 1 || day > 31 {
			continue
		}
		var t time.Time
		if hm, err := time.Parse("15:04", f[i+2]); err == nil {
			year := now.Year()
			t = time.Date(year, mon.Month(), day, hm.Hour(), hm.Minute(), 0, 0, time.UTC)
			if t.After(now.Add(24 * time.Hour)) {
				t = t.AddDate(-1, 0, 0)
			}
		} else if y, err := strconv.Atoi(f[i+2]); err == nil && y > 1900 && y < 10000 {
			t = time.Date(y, mon.Month(), day, 0, 0, 0, 0, time.UTC)
		} else {
			continue
		}
		if n, err := strconv.ParseInt(f[i-1], 10, 64); err == nil && n >= 0 {
			e.Size = n
		}
		e.Time = t
		e.Name = rest(line, i+3)
		if e.Type == "link" {
			e.Name, _, _ = strings.Cut(e.Name, " -> ")
		}
		if e.Name == "" {
			break
		}
		return e, nil
	}
	return Entry{}, fmt.Errorf("%w: %q", ErrListLine, wire.Clip(line))
}
