package ipv4

import "testing"

func TestAton(t *testing.T) {
	// inet_aton's forms, as trurl's manual lists them (host section).
	for in, want := range map[string]string{
		"646464646": "38.136.68.134", "246.646": "246.0.2.134", "246.46.646": "246.46.2.134",
		"0x14.0xb3022": "20.11.48.34", "127.1": "127.0.0.1", "010.0.0.1": "8.0.0.1", "1.2.3.4": "1.2.3.4",
		"0x0": "0.0.0.0", "4294967295": "255.255.255.255", "0X7f.1": "127.0.0.1", "00": "0.0.0.0",
	} {
		if got, ok := Aton(in); !ok || got.String() != want {
			t.Errorf("Aton(%q) = %v, %v; want %s", in, got, ok, want)
		}
	}
	for _, name := range []string{"1.2.3.256", "4294967296", "1.2.3.4.5", "a.b", "1..2", "08", "1.2.3.", "", "256.1", "0x", "+1", "1_0", "[::1]", "example.com"} {
		if got, ok := Aton(name); ok {
			t.Errorf("Aton(%q) = %v: a name, not a number", name, got)
		}
	}
}
