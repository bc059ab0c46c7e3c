package ftp

import (
	"errors"
	"net/netip"
	"testing"
)

func TestParsePASV(t *testing.T) {
	tests := []struct {
		msg  string
		addr string // "" = error
		port uint16
	}{
		{"Entering Passive Mode (127,0,0,1,117,70).", "127.0.0.1", 117<<8 | 70},
		{"Entering Passive Mode (192,168,1,2,4,1)", "192.168.1.2", 1025},
		{"Entering Passive Mode 10,0,0,5,0,21", "10.0.0.5", 21}, // no parentheses
		{"=127,0,0,1,255,255", "127.0.0.1", 65535},
		{"Passive 2 go (1,2,3,4,5,6)", "1.2.3.4", 5<<8 | 6}, // a lone number before the group
		{"(256,0,0,1,1,1)", "", 0},
		{"(1,2,3,4,5)", "", 0},
		{"(1,2,3,4,5,6,7)", "", 0},
		{"(1,2,3,4,5,1234)", "", 0},
		{"", "", 0},
		{"Entering Passive Mode", "", 0},
	}
	for _, tt := range tests {
		a, p, err := parsePASV(tt.msg)
		if tt.addr == "" {
			if !errors.Is(err, ErrMalformedReply) {
				t.Errorf("parsePASV(%q) = %v, %d, %v; want ErrMalformedReply", tt.msg, a, p, err)
			}
			continue
		}
		if err != nil || a != netip.MustParseAddr(tt.addr) || p != tt.port {
			t.Errorf("parsePASV(%q) = %v, %d, %v; want %s, %d", tt.msg, a, p, err, tt.addr, tt.port)
		}
	}
}

func TestParseEPSV(t *testing.T) {
	tests := []struct {
		msg  string
		port uint16 // 0 = error
	}{
		{"Entering Extended Passive Mode (|||6446|)", 6446}, // RFC 2428 section 3
		{"Entering Extended Passive Mode (|||30070|)", 30070},
		{"Entering Extended Passive Mode (!!!1!)", 1}, // any delimiter
		{"Extended (|||65535|) and more", 65535},
		{"(|||65536|)", 0},
		{"(|||0|)", 0},
		{"(|||+80|)", 0},
		{"(||||)", 0},
		{"(|||80)", 0},
		{"(|||80|", 0},
		{"(1114|)", 0},
		{"(|1|127.0.0.1|80|)", 0}, // that is EPRT syntax
		{"no parens", 0},
		{"(", 0},
	}
	for _, tt := range tests {
		p, err := parseEPSV(tt.msg)
		if tt.port == 0 {
			if !errors.Is(err, ErrMalformedReply) {
				t.Errorf("parseEPSV(%q) = %d, %v; want ErrMalformedReply", tt.msg, p, err)
			}
			continue
		}
		if err != nil || p != tt.port {
			t.Errorf("parseEPSV(%q) = %d, %v; want %d", tt.msg, p, err, tt.port)
		}
	}
}

func TestPasvHost(t *testing.T) {
	a := netip.MustParseAddr
	tests := []struct {
		reply, peer string
		trust       bool
		want        string
	}{
		// Default: always the peer (RFC 2577 bounce protection).
		{"203.0.113.9", "198.51.100.1", false, "198.51.100.1"},
		{"10.0.0.1", "198.51.100.1", false, "198.51.100.1"},
		{"127.0.0.1", "127.0.0.1", false, "127.0.0.1"},
		// lftp ftp:fix-pasv-address semantics with TrustPASVAddr.
		{"203.0.113.9", "198.51.100.1", true, "203.0.113.9"}, // public -> public: trusted
		{"10.0.0.1", "198.51.100.1", true, "198.51.100.1"},   // private behind a public peer: NAT bug
		{"192.168.1.5", "10.0.0.2", true, "192.168.1.5"},     // both internal: trusted
		{"0.0.0.0", "198.51.100.1", true, "198.51.100.1"},    // unspecified
		{"0.0.0.0", "10.0.0.2", true, "10.0.0.2"},
		{"127.0.0.1", "198.51.100.1", true, "198.51.100.1"}, // loopback from afar
		{"100.64.0.1", "198.51.100.1", true, "198.51.100.1"},
		{"169.254.1.1", "198.51.100.1", true, "198.51.100.1"},
	}
	for _, tt := range tests {
		if got := pasvHost(a(tt.reply), a(tt.peer), tt.trust); got != a(tt.want) {
			t.Errorf("pasvHost(%s, %s, %v) = %v, want %s", tt.reply, tt.peer, tt.trust, got, tt.want)
		}
	}
}
