package ftp

import (
	"testing"
	"time"
)

func TestParseListings(t *testing.T) {
	now := time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		line string
		mlsd bool
		want Entry
	}{
		// RFC 3659 7.7 style, as ProFTPD sends it.
		{"modify=20261123191930;perm=adfr;size=26;type=file;unique=FE00U; hello.txt", true, Entry{"hello.txt", "file", 26, time.Date(2026, 11, 23, 19, 19, 30, 0, time.UTC)}},
		{"modify=20261123191930;perm=flcdmpe;type=dir; sub dir", true, Entry{"sub dir", "dir", -1, time.Date(2026, 11, 23, 19, 19, 30, 0, time.UTC)}},
		{"type=OS.unix=symlink;size=9; link", true, Entry{"link", "link", 9, time.Time{}}},
		// Unix ls -l: this year's time, an old file's year, a link.
		{"-rw-r--r--   1 ftp      ftp            26 Nov 23 19:19 hello.txt", false, Entry{"hello.txt", "file", 26, time.Date(2026, 11, 23, 19, 19, 0, 0, time.UTC)}},
		{"drwxr-xr-x   2 ftp      ftp          4096 Dec 24  2019 old dir", false, Entry{"old dir", "dir", 4096, time.Date(2019, 12, 24, 0, 0, 0, 0, time.UTC)}},
		{"lrwxrwxrwx   1 0        0               7 Dec 30 10:00 l -> target", false, Entry{"l", "link", 7, time.Date(2025, 12, 30, 10, 0, 0, 0, time.UTC)}},
		// DOS / IIS.
		{"11-23-26  07:19PM       <DIR>          pub", false, Entry{"pub", "dir", -1, time.Date(2026, 11, 23, 19, 19, 0, 0, time.UTC)}},
		{"01-02-06  09:05AM                   26 read me.txt", false, Entry{"read me.txt", "file", 26, time.Date(2006, 1, 2, 9, 5, 0, 0, time.UTC)}},
	} {
		var got Entry
		var err error
		if tc.mlsd {
			got, err = ParseMLSD(tc.line)
		} else {
			got, err = ParseList(tc.line, now)
		}
		if err != nil || got != tc.want {
			t.Errorf("%q:\n got %+v, %v\nwant %+v", tc.line, got, err, tc.want)
		}
	}
	for _, bad := range []string{"total 12", "", "-rw-r--r-- 1 a b 26 Nov 23 19:19", "no-facts-no-name"} {
		_, err1 := ParseList(bad, now)
		_, err2 := ParseMLSD(bad)
		if err1 == nil || (bad == "" || bad == "no-facts-no-name") && err2 == nil {
			t.Errorf("%q: want errors, got %v, %v", bad, err1, err2)
		}
	}
}

func FuzzParseList(f *testing.F) {
	for _, s := range []string{
		"-rw-r--r--   1 ftp      ftp            26 Nov 23 19:19 hello.txt",
		"lrwxrwxrwx 1 0 0 7 Dec 30 10:00 l -> target",
		"11-23-26  07:19PM       <DIR>          pub",
		"modify=20261123191930;size=26;type=file; hello.txt",
		"total 0",
	} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		for _, parse := range []func(string) (Entry, error){func(s string) (Entry, error) { return ParseList(s, now) }, ParseMLSD} {
			e, err := parse(s)
			if err != nil {
				continue
			}
			if e.Name == "" || e.Size < -1 || len(e.Name) > len(s) {
				t.Fatalf("%q: %+v", s, e)
			}
		}
	})
}

func TestParseEntry(t *testing.T) {
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		format, line string
		name         string // "" when none
		skip, err    bool
	}{
		{"MLSD", "type=file;size=26; hello.txt", "hello.txt", false, false},
		{"MLSD", "type=cdir; .", "", true, false},
		{"MLSD", "type=dir; ..", "", true, false},
		{"MLSD", "nofacts", "", false, true},
		{"LIST", "-rw-r--r--   1 ftp ftp 26 Jan 02 2024 hello.txt", "hello.txt", false, false},
		{"LIST", "total 8", "", true, true},
		{"LIST", "", "", true, true},
		{"LIST", "what is this", "", false, true},
		{"NLST", "hello.txt", "hello.txt", false, false},
	} {
		e, skip, err := ParseEntry(tc.format, tc.line, now)
		if skip != tc.skip || (err != nil) != tc.err || tc.name != "" && e.Name != tc.name {
			t.Errorf("ParseEntry(%s, %q) = %+v, skip %v, %v", tc.format, tc.line, e, skip, err)
		}
	}
}
