package registry

// Port is what urlkit knows of a well-known port.
type Port struct {
	// Use names the protocol that usually listens there, for people
	// ("SMTP", "IRC"): IANA's assignments and common use.
	Use string
	// Blocked gives the service name of the Fetch standard's list of
	// bad ports ("smtp", "ircu"), or "" when the port is not on it.
	Blocked string
}

// ports is the one port table: the ports a URL on a non-default port
// most often reaches, and the Fetch standard's list of bad ports
// (https://fetch.spec.whatwg.org/#port-blocking, as of 2024, with 4190
// and 6679 added by whatwg/fetch#1663): ports of protocols a client must
// not be made to talk to, because a request of one protocol can be read
// as commands of another (RFC 1738 section 6's gopher-to-SMTP example).
var ports = map[int]Port{
	1: {"", "tcpmux"}, 7: {"echo", "echo"}, 9: {"discard", "discard"}, 11: {"", "systat"},
	13: {"daytime", "daytime"}, 15: {"", "netstat"}, 17: {"", "qotd"}, 19: {"chargen", "chargen"},
	20: {"FTP data", "ftp-data"}, 21: {"FTP", "ftp"}, 22: {"SSH", "ssh"}, 23: {"telnet", "telnet"},
	25: {"SMTP", "smtp"}, 37: {"time", "time"}, 42: {"", "name"}, 43: {"whois", "nicname"},
	53: {"DNS", "domain"}, 69: {"", "tftp"}, 70: {"Gopher", ""}, 77: {"", "priv-rjs"},
	79: {"finger", "finger"}, 80: {"HTTP", ""}, 87: {"", "ttylink"}, 88: {"Kerberos", ""},
	95: {"", "supdup"}, 101: {"", "hostname"}, 102: {"", "iso-tsap"}, 103: {"", "gppitnp"},
	104: {"", "acr-nema"}, 109: {"", "pop2"}, 110: {"POP3", "pop3"}, 111: {"SUN RPC (portmapper)", "sunrpc"},
	113: {"ident", "auth"}, 115: {"", "sftp"}, 117: {"", "uucp-path"}, 119: {"NNTP", "nntp"},
	123: {"NTP", "ntp"}, 135: {"MS RPC", "epmap"}, 137: {"", "netbios-ns"}, 139: {"NetBIOS", "netbios-ssn"},
	143: {"IMAP", "imap"}, 161: {"SNMP", "snmp"}, 179: {"BGP", "bgp"}, 194: {"IRC", ""},
	210: {"WAIS (Z39.50)", ""}, 389: {"LDAP", "ldap"}, 427: {"", "svrloc"}, 443: {"HTTPS", ""},
	445: {"SMB", ""}, 465: {"SMTP over TLS", "submissions"}, 512: {"", "exec"}, 513: {"rlogin", "login"},
	514: {"rsh", "shell"}, 515: {"LPD (printing)", "printer"}, 526: {"", "tempo"}, 530: {"", "courier"},
	531: {"", "chat"}, 532: {"", "netnews"}, 540: {"UUCP", "uucp"}, 548: {"", "afp"}, 554: {"", "rtsp"},
	556: {"", "remotefs"}, 563: {"NNTP over TLS", "nntps"}, 587: {"mail submission (SMTP)", "submission"},
	601: {"", "syslog-conn"}, 631: {"IPP (printing)", ""}, 636: {"LDAP over TLS", "ldaps"},
	989: {"", "ftps-data"}, 990: {"", "ftps"}, 993: {"IMAP over TLS", "imaps"}, 995: {"POP3 over TLS", "pop3s"},
	1525: {"Prospero", ""}, 1719: {"", "h323gatestat"}, 1720: {"", "h323hostcall"}, 1723: {"", "pptp"},
	2049: {"NFS", "nfs"}, 3306: {"MySQL", ""}, 3659: {"", "apple-sasl"}, 4045: {"", "npp"},
	4190: {"", "sieve"}, 5060: {"", "sip"}, 5061: {"", "sips"}, 5432: {"PostgreSQL", ""},
	6000: {"", "x11"}, 6379: {"Redis", ""}, 6566: {"", "sane-port"}, 6665: {"", "ircu"},
	6666: {"", "ircu"}, 6667: {"IRC", "ircu"}, 6668: {"", "ircu"}, 6669: {"", "ircu"},
	6679: {"", "osaut"}, 6697: {"IRC over TLS", "ircs-u"}, 10080: {"", "amanda"}, 11211: {"memcached", ""},
}

// LookupPort returns what the table says of port n.
func LookupPort(n int) (Port, bool) {
	p, ok := ports[n]
	return p, ok
}
