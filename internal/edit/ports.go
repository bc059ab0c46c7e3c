package edit

import (
	"strconv"

	"github.com/urlkit/urlkit/internal/registry"
)

// curlSchemes are the schemes libcurl supports: trurl drops a default
// port, and --curl accepts a scheme, only for these. Their ports are the
// registry's.
var curlSchemes = map[string]bool{
	"dict": true, "file": true, "ftp": true, "ftps": true, "gopher": true, "gophers": true,
	"http": true, "https": true, "imap": true, "imaps": true, "ldap": true, "ldaps": true,
	"mqtt": true, "pop3": true, "pop3s": true, "rtmp": true, "rtsp": true,
	"scp": true, "sftp": true, "smb": true, "smbs": true, "smtp": true, "smtps": true,
	"telnet": true, "tftp": true, "ws": true, "wss": true,
}

// CurlScheme reports whether libcurl supports the scheme (lower case).
func CurlScheme(scheme string) bool { return curlSchemes[scheme] }

// DefaultPort returns the default port of a scheme libcurl supports, as
// decimal text; "" for another scheme or one without a port (file).
func DefaultPort(scheme string) string {
	if !curlSchemes[scheme] {
		return ""
	}
	if p := registry.DefaultPort(scheme); p > 0 {
		return strconv.Itoa(p)
	}
	return ""
}

// optionSchemes have curl's login options (user:password;options@host).
var optionSchemes = map[string]bool{"imap": true, "imaps": true, "pop3": true, "pop3s": true, "smtp": true, "smtps": true}
