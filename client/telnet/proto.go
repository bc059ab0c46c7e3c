package telnet

import "strconv"

// Telnet commands (RFC 854; EOR is RFC 885). Each is sent after IAC.
const (
	SE   byte = 240 // end of subnegotiation parameters
	NOP  byte = 241 // no operation
	DM   byte = 242 // data mark: the data-stream end of a Synch
	BRK  byte = 243 // break
	IP   byte = 244 // interrupt process
	AO   byte = 245 // abort output
	AYT  byte = 246 // are you there
	EC   byte = 247 // erase character
	EL   byte = 248 // erase line
	GA   byte = 249 // go ahead
	SB   byte = 250 // start of subnegotiation
	WILL byte = 251 // sender wants to enable (or confirms) an option on its side
	WONT byte = 252 // sender refuses (or disables) an option on its side
	DO   byte = 253 // sender asks the peer to enable an option
	DONT byte = 254 // sender asks the peer to disable an option
	IAC  byte = 255 // interpret as command
	EOR  byte = 239 // end of record (RFC 885), used by TN3270
)

// Options (the "Assigned Numbers" registry; RFCs 856, 857, 858, 1091,
// 885, 1073).
const (
	OptBinary   byte = 0  // RFC 856: 8-bit data, no NVT CR rules
	OptEcho     byte = 1  // RFC 857: the side that WILLs echoes
	OptSGA      byte = 3  // RFC 858: suppress go ahead
	OptTermType byte = 24 // RFC 1091: terminal type
	OptEOR      byte = 25 // RFC 885: end of record
	OptNAWS     byte = 31 // RFC 1073: negotiate about window size
)

// TERMINAL-TYPE subnegotiation codes (RFC 1091).
const (
	ttIs   byte = 0
	ttSend byte = 1
)

var commandNames = map[byte]string{
	SE: "SE", NOP: "NOP", DM: "DM", BRK: "BRK", IP: "IP", AO: "AO", AYT: "AYT", EC: "EC",
	EL: "EL", GA: "GA", SB: "SB", WILL: "WILL", WONT: "WONT", DO: "DO", DONT: "DONT", IAC: "IAC", EOR: "EOR",
}

var optionNames = map[byte]string{
	OptBinary: "BINARY", OptEcho: "ECHO", OptSGA: "SUPPRESS-GO-AHEAD", 5: "STATUS", 6: "TIMING-MARK",
	OptTermType: "TERMINAL-TYPE", OptEOR: "END-OF-RECORD", OptNAWS: "NAWS", 32: "TERMINAL-SPEED",
	33: "TOGGLE-FLOW-CONTROL", 34: "LINEMODE", 35: "X-DISPLAY-LOCATION", 36: "OLD-ENVIRON",
	37: "AUTHENTICATION", 38: "ENCRYPT", 39: "NEW-ENVIRON", 40: "TN3270E",
}

// CommandName returns the RFC name of a command byte ("WILL", "IP"), or
// its number.
func CommandName(c byte) string {
	if n, ok := commandNames[c]; ok {
		return n
	}
	return strconv.Itoa(int(c))
}

// OptionName returns the registered name of an option ("NAWS"), or its
// number.
func OptionName(o byte) string {
	if n, ok := optionNames[o]; ok {
		return n
	}
	return strconv.Itoa(int(o))
}

// AppendCommand appends IAC cmd to dst.
func AppendCommand(dst []byte, cmd byte) []byte { return append(dst, IAC, cmd) }

// AppendOption appends the negotiation IAC verb opt (verb is WILL, WONT,
// DO or DONT) to dst.
func AppendOption(dst []byte, verb, opt byte) []byte { return append(dst, IAC, verb, opt) }

// AppendSubneg appends IAC SB opt params IAC SE to dst, with every 255
// byte of params doubled (RFC 855).
func AppendSubneg(dst []byte, opt byte, params []byte) []byte {
	dst = append(dst, IAC, SB, opt)
	for _, b := range params {
		if b == IAC {
			dst = append(dst, IAC)
		}
		dst = append(dst, b)
	}
	return append(dst, IAC, SE)
}

// AppendData appends user data to dst as it goes on the wire. IAC (255)
// is doubled. Unless binary is set (BINARY enabled on our side, RFC 856),
// the NVT end-of-line rules of RFC 854 apply: a line feed becomes CR LF
// (a CR LF in the input stays one CR LF), and a CR not followed by LF
// becomes CR NUL. A CR at the very end of data becomes CR NUL too.
func AppendData(dst, data []byte, binary bool) []byte {
	for i := 0; i < len(data); i++ {
		b := data[i]
		switch {
		case b == IAC:
			dst = append(dst, IAC, IAC)
		case binary:
			dst = append(dst, b)
		case b == '\n':
			dst = append(dst, '\r', '\n')
		case b == '\r':
			if i+1 < len(data) && data[i+1] == '\n' {
				dst = append(dst, '\r', '\n')
				i++
			} else {
				dst = append(dst, '\r', 0)
			}
		default:
			dst = append(dst, b)
		}
	}
	return dst
}

// AppendLine appends line, a line typed at a prompt as an access plan
// writes it (its text and the NVT end of line CR LF), as it goes on the
// wire. Without binary it is AppendData: IAC doubled, the CR LF sent as
// it is (RFC 854; RFC 1123 3.2.3: a server takes CR LF as the user's
// Return key). With binary (BINARY on our side, RFC 856) the data is
// 8-bit bytes with no end-of-line convention, so a CR LF would reach the
// server's terminal as two line ends (an empty password typed after the
// login name): IAC is still doubled and the final CR LF is sent as CR
// alone, the byte the Return key itself sends, as BSD telnet does in
// binary mode.
func AppendLine(dst, line []byte, binary bool) []byte {
	if binary && len(line) >= 2 && line[len(line)-2] == '\r' && line[len(line)-1] == '\n' {
		return append(AppendData(dst, line[:len(line)-2], true), '\r')
	}
	return AppendData(dst, line, binary)
}

// AppendNAWS appends the RFC 1073 window-size subnegotiation
// IAC SB NAWS w1 w0 h1 h0 IAC SE (sizes are 16-bit, big-endian).
func AppendNAWS(dst []byte, width, height int) []byte {
	w, h := clamp16(width), clamp16(height)
	return AppendSubneg(dst, OptNAWS, []byte{byte(w >> 8), byte(w), byte(h >> 8), byte(h)})
}

// AppendTermType appends the RFC 1091 answer IAC SB TERMINAL-TYPE IS name
// IAC SE.
func AppendTermType(dst []byte, name string) []byte {
	p := make([]byte, 0, 1+len(name))
	p = append(p, ttIs)
	p = append(p, name...)
	return AppendSubneg(dst, OptTermType, p)
}

func clamp16(n int) int {
	return min(max(n, 0), 0xffff)
}
