package edit

import "testing"

// TestDefaultPort: the registry's ports are libcurl's for the schemes
// libcurl supports (curl's lib/*.c handler tables), and a scheme libcurl
// lacks keeps its port.
func TestDefaultPort(t *testing.T) {
	curl := map[string]string{
		"dict": "2628", "file": "", "ftp": "21", "ftps": "990", "gopher": "70", "gophers": "70",
		"http": "80", "https": "443", "imap": "143", "imaps": "993", "ldap": "389", "ldaps": "636",
		"mqtt": "1883", "pop3": "110", "pop3s": "995", "rtmp": "1935", "rtsp": "554",
		"scp": "22", "sftp": "22", "smb": "445", "smbs": "445", "smtp": "25", "smtps": "465",
		"telnet": "23", "tftp": "69", "ws": "80", "wss": "443",
	}
	for s, want := range curl {
		if got := DefaultPort(s); got != want {
			t.Errorf("DefaultPort(%q) = %q, want libcurl's %q", s, got, want)
		}
	}
	if len(curl) != len(curlSchemes) {
		t.Errorf("%d schemes listed for libcurl, %d tested", len(curlSchemes), len(curl))
	}
	for _, s := range []string{"nntp", "wais", "x-y", "prospero"} {
		if got := DefaultPort(s); got != "" {
			t.Errorf("DefaultPort(%q) = %q: libcurl does not know it", s, got)
		}
	}
}
