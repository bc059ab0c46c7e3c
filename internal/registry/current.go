package registry

// currentPorts are the default ports of schemes in use today that the
// rows do not cover. They live apart from the rows, which hold the
// schemes of the specifications (and which extract, scheme.List and the
// strict check read), and only DefaultPort reads them. Sources: ws 80 and wss 443 (RFC 6455 3), imap
// 143 (RFC 5092), pop 110 (RFC 2384), ldap 389 (RFC 4516), rtsp 554 and
// rtsps 322 (RFC 7826 19), sip 5060 and sips 5061 (RFC 3261 19.1.2), dict
// 2628 (RFC 2229), tftp 69 (RFC 3617), coap 5683 and coaps 5684 (RFC 7252
// 6), snmp 161 (RFC 4088), git 9418, ssh, sftp and
// scp 22, smb 445, mqtt 1883 and mqtts 8883 (IANA port registry), and
// libcurl's ftps 990, gophers 70, imaps 993, pop3 110, pop3s 995, smtp 25,
// smtps 465, ldaps 636, rtmp 1935 and smbs 445. nfs (RFC 2224: 2049) is
// left out: package scheme lists it as the drafts have it, reserved and
// without a port.
var currentPorts = map[string]int{
	"ws": 80, "wss": 443,
	"ftps": 990, "gophers": 70,
	"imap": 143, "imaps": 993,
	"pop": 110, "pop3": 110, "pop3s": 995,
	"smtp": 25, "smtps": 465,
	"ldap": 389, "ldaps": 636,
	"rtsp": 554, "rtsps": 322, "rtmp": 1935,
	"sip": 5060, "sips": 5061,
	"dict": 2628, "tftp": 69,
	"coap": 5683, "coaps": 5684,
	"snmp": 161, "git": 9418,
	"ssh": 22, "sftp": 22, "scp": 22,
	"smb": 445, "smbs": 445,
	"mqtt": 1883, "mqtts": 8883,
}

// currentPort returns the default port of a scheme of currentPorts
// (case-insensitive), or 0, without allocating: the lower-cased name is
// built in an array, and m[string(b)] does not copy b.
func currentPort(scheme string) int {
	var b [8]byte
	if len(scheme) > len(b) {
		return 0
	}
	for i := 0; i < len(scheme); i++ {
		c := scheme[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return currentPorts[string(b[:len(scheme)])]
}
