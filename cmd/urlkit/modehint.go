package main

import (
	"github.com/urlkit/urlkit"
)

// The default mode is RFC 1738's, and many URLs of today break it (a "~",
// a user name in an http URL, an IPv6 literal): an error then says
// whether RFC 3986 takes the URL, and which flag reads it so.

// validElsewhere returns the mode other than m in which s is a valid
// URL (or, with ref, a URL or relative reference): RFC 3986 for the
// modes of RFC 1738 and 1630, else the WHATWG mode (what a browser
// reads); false when m is WHATWG or no such mode takes s.
func validElsewhere(s string, m urlkit.Mode, ref bool) (urlkit.Mode, bool) {
	if m == urlkit.WHATWG {
		return 0, false
	}
	var err error
	if m == urlkit.RFC1738 || m == urlkit.RFC1630 {
		if ref {
			_, _, err = urlkit.ParseReference(s, urlkit.RFC3986)
		} else {
			_, _, err = urlkit.ParseMode(s, urlkit.RFC3986)
		}
		if err == nil {
			return urlkit.RFC3986, true
		}
	}
	// A browser reads more than RFC 3986 allows.
	_, _, err = urlkit.ParseMode(s, urlkit.WHATWG)
	return urlkit.WHATWG, err == nil
}

// modeHint returns "; valid in --mode rfc3986" when s, invalid in mode
// m, is valid in that mode, and "" otherwise.
func modeHint(s string, m urlkit.Mode, ref bool) string {
	if other, ok := validElsewhere(s, m, ref); ok {
		return (&hintError{mode: other}).hint()
	}
	return ""
}

// hinted adds the hint of modeHint to a parse error of s, keeping the
// error for errors.Is and errors.As (printErr prints the hint after the
// error's line).
func hinted(err error, s string, m urlkit.Mode, ref bool) error {
	if other, ok := validElsewhere(s, m, ref); ok {
		return &hintError{err, other}
	}
	return err
}

// hintError is a parse error with the mode in which the input is valid.
type hintError struct {
	err  error
	mode urlkit.Mode
}

func (e *hintError) Error() string { return e.err.Error() + e.hint() }
func (e *hintError) Unwrap() error { return e.err }

// validInPrefix starts the hint printed after an error's line.
const validInPrefix = "; valid in --mode "

// hint is the text printed after the error's line, one per mode, built
// once: check prints it for each of the many web URLs with a "~", and
// building it there was one of the three allocations of such a line.
func (e *hintError) hint() string {
	if int(e.mode) < len(modeHints) {
		return modeHints[e.mode]
	}
	return validInPrefix + e.mode.String()
}

var modeHints = func() (h [urlkit.WHATWG + 1]string) {
	for m := range h {
		h[m] = validInPrefix + urlkit.Mode(m).String()
	}
	return h
}()
