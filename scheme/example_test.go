package scheme_test

import (
	"fmt"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

func ExampleFTP() {
	// RFC 1738 3.2.2: %2F stays inside its segment.
	for _, s := range []string{"ftp://myname@host.dom/%2Fetc/motd", "ftp://myname@host.dom//etc/motd"} {
		u, _ := urlkit.Parse(s)
		v, err := scheme.Parse(&u, urlkit.RFC1738)
		if err != nil {
			panic(err)
		}
		f := v.(*scheme.FTP)
		fmt.Printf("user %q CWD %q name %q\n", f.User, f.CWD, f.Name)
	}
	// Output:
	// user "myname" CWD ["/etc"] name "motd"
	// user "myname" CWD ["" "etc"] name "motd"
}

func ExampleFTP_URL() {
	f := &scheme.FTP{Host: "host.dom", CWD: []string{"/etc"}, Name: "a;b", Type: "a"}
	fmt.Println(f.URL())
	// Output:
	// ftp://host.dom/%2Fetc/a%3Bb;type=a
}

func ExampleGopher() {
	// RFC 1738 3.4: the type, the selector, an empty search and a
	// Gopher+ string asking for an alternate view.
	u, _ := urlkit.Parse("gopher://host/0a_gopher_selector%09%09+application/postscript%20Es_ES")
	v, _ := scheme.Parse(&u, urlkit.RFC1738)
	g := v.(*scheme.Gopher)
	fmt.Printf("type %c selector %q search %q Gopher+ %q\n", g.Type, g.Selector, g.Search, g.Plus)
	// Output:
	// type 0 selector "a_gopher_selector" search "" Gopher+ "+application/postscript Es_ES"
}

func ExampleMailto() {
	u, _ := urlkit.Parse("mailto:%22John%20Doe%22@example.com")
	v, _ := scheme.Parse(&u, urlkit.RFC1738)
	m := v.(*scheme.Mailto)
	local, domain := m.Split()
	fmt.Println(m.Address, "|", local, "|", domain)

	u, _, _ = urlkit.ParseMode("mailto:john%20doe@example.com", urlkit.RFC3986)
	_, err := scheme.Parse(&u, urlkit.RFC3986)
	fmt.Println(err)
	// Output:
	// "John Doe"@example.com | "John Doe" | example.com
	// urlkit: "mailto:john%20doe@example.com": offset 11: space (written %20) may not appear unquoted in the local-part of an RFC 822 address (RFC 822 6.1, local-part = word *("." word); RFC 1738 3.5)
}

func ExampleNews() {
	for _, s := range []string{"news:comp.infosystems.www.misc", "news:12345667123asdghfh@info.cern.ch", "news:*"} {
		u, _ := urlkit.Parse(s)
		v, _ := scheme.Parse(&u, urlkit.RFC1738)
		n := v.(*scheme.News)
		fmt.Printf("%s %q %q\n", n.Kind(), n.Group, n.MessageID)
	}
	// Output:
	// group "comp.infosystems.www.misc" ""
	// article "" "12345667123asdghfh@info.cern.ch"
	// all "" ""
}

func ExampleWAIS() {
	// RFC 1630's wpath fields, in the rfc1630 mode.
	u, _, _ := urlkit.ParseMode("wais://quake.think.com/db/TEXT/1=abc;2=x%3By;", urlkit.RFC1630)
	v, _ := scheme.Parse(&u, urlkit.RFC1630)
	w := v.(*scheme.WAIS)
	fmt.Printf("%s %s %q %v\n", w.Database, w.WType, w.WPath, w.Fields)
	// Output:
	// db TEXT "1=abc;2=x;y;" [{1 abc} {2 x;y}]
}

func ExampleFileFromVMS() {
	// RFC 1738 3.10's example (whose text drops a digit of the name).
	f, _ := scheme.FileFromVMS("vms.host.edu", "DISK$USER:[MY.NOTES]NOTE123456.TXT")
	fmt.Println(f.URL())
	spec, _ := f.VMSPath()
	fmt.Println(spec)
	// Output:
	// file://vms.host.edu/disk$user/my/notes/note123456.txt
	// DISK$USER:[MY.NOTES]NOTE123456.TXT
}

func ExampleFile_LocalPath() {
	u, _ := urlkit.Parse("file://localhost/etc/motd")
	v, _ := scheme.Parse(&u, urlkit.RFC1738)
	f := v.(*scheme.File)
	fmt.Println(f.IsLocal(), f.Path)
	// Output:
	// true /etc/motd
}

func ExampleProspero() {
	u, _ := urlkit.Parse("prospero://host.dom//pros/name%0012;OBJECT-VERSION=3")
	v, _ := scheme.Parse(&u, urlkit.RFC1738)
	p := v.(*scheme.Prospero)
	fmt.Printf("%q version %q fields %v\n", p.HSOName, p.Version, p.Fields)
	// Output:
	// "/pros/name" version "12" fields [{OBJECT-VERSION 3}]
}

func ExampleParse() {
	for _, s := range []string{
		"nntp://news.example/comp.infosystems.www/1234",
		"gopher://gopher.example/7/search%09urls",
		"ftp://ftp.example/pub/README",
		"x-private:thing", // no view: x- schemes are by mutual agreement
	} {
		u, _ := urlkit.Parse(s)
		v, err := scheme.Parse(&u, urlkit.RFC1738)
		switch v := v.(type) {
		case *scheme.NNTP:
			fmt.Println("nntp: group", v.Group, "article", v.Article)
		case *scheme.Gopher:
			fmt.Printf("gopher: type %c selector %q search %q\n", v.Type, v.Selector, v.Search)
		case *scheme.FTP:
			fmt.Println("ftp: CWD", v.CWD, "name", v.Name, "a listing:", v.IsDir())
		case nil:
			fmt.Println("no view:", u.Scheme, err)
		}
	}
	// Output:
	// nntp: group comp.infosystems.www article 1234
	// gopher: type 7 selector "/search" search "urls"
	// ftp: CWD [pub] name README a listing: false
	// no view: x-private <nil>
}

func ExampleKnown() {
	for _, name := range []string{"ftp", "prospero", "afs", "x-mine", "gopher+"} {
		in, ok := scheme.Known(name)
		fmt.Println(name, ok, in.Port, in.Status, in.Section)
	}
	// Output:
	// ftp true 21 defined RFC 1738 3.2
	// prospero true 1525 defined RFC 1738 3.11
	// afs true 0 historical draft-ietf-uri-url-03 (afsaddress)
	// x-mine true 0 experimental RFC 1738 section 4
	// gopher+ false 0 defined
}

func ExamplePlanURL() {
	u, _ := urlkit.Parse("ftp://myname@host.dom/%2Fetc/motd;type=a")
	plan, _ := scheme.PlanURL(&u, scheme.PlanOptions{})
	for _, line := range plan.Lines(false) {
		fmt.Println(line)
	}
	// Output:
	// connect host.dom:21
	// # expect 220: the server's greeting (RFC 959 5.4)
	// send "USER myname\r\n"
	// # no password in the URL: the client asks the user and sends PASS with the answer (RFC 1738 3.2.1)
	// # if the server replies 331 (it wants a password):
	// # ask the user: the password of myname
	// # if the server replies 331 (it wants a password):
	// # send "PASS " and the answer, then "\r\n"
	// send "CWD /etc\r\n"
	// # ;type=a: the client performs TYPE with the type code (RFC 1738 3.2.2)
	// send "TYPE A\r\n"
	// send "EPSV\r\n"
	// # if the server refuses EPSV:
	// send "PASV\r\n"
	// # the client opens the data connection to the port of the 229 reply (or of the 227 reply, on the control connection's address)
	// send "RETR motd\r\n"
	// # to tell a directory (add a "/" to list it) from a missing file
	// # if RETR fails with 550:
	// send "CWD motd\r\n"
	// # the file ends when the server closes the data connection; fewer bytes than SIZE or the 150 reply announced is a short transfer
	// send "QUIT\r\n"
}

func ExampleConcerns() {
	// RFC 1738 section 6: a gopher URL aimed at an SMTP server.
	u, _ := urlkit.Parse("gopher://mail.example:25/0HELO%20x%0D%0AQUIT")
	for _, c := range scheme.Concerns(&u, nil) {
		fmt.Println(c.Refuse, c)
	}
	// Output:
	// false offset 22: port 25 is not the gopher default (70); port 25 usually runs SMTP, which could take the request as commands of its own; it is on the list of ports browsers block: the access layer refuses it unless told to allow it (get --allow-port 25) (RFC 1738 section 6)
	// true offset 34: %0D decodes to CR in the Gopher selector line: CR ends the line, and what follows would be read as a command of its own (RFC 1738 section 6); the access layer refuses this URL
	// true offset 37: %0A decodes to LF in the Gopher selector line: LF ends the line, and what follows would be read as a command of its own (RFC 1738 section 6); the access layer refuses this URL
}

func ExampleBlockedPort() {
	for _, p := range []int{25, 70, 119, 6667, 8080} {
		if service, blocked := scheme.BlockedPort(p); blocked {
			fmt.Println(p, "blocked:", service)
		} else {
			fmt.Println(p, "allowed")
		}
	}
	// Output:
	// 25 blocked: smtp
	// 70 allowed
	// 119 blocked: nntp
	// 6667 blocked: ircu
	// 8080 allowed
}

func ExampleParse_dialect() {
	// The mode the URL was parsed in chooses the dialect. RFC 1738 allows
	// no login in an http URL; RFC 3986 does.
	const login = "http://joe:secret@www.example/private"
	for _, m := range []urlkit.Mode{urlkit.RFC1738, urlkit.RFC3986} {
		u, _, err := urlkit.ParseMode(login, m)
		if err != nil {
			fmt.Println(m, err)
			continue
		}
		v, err := scheme.Parse(&u, m)
		if err != nil {
			fmt.Println(m, err)
			continue
		}
		fmt.Println(m, "user", v.(*scheme.HTTP).User)
	}

	// In RFC3986 (and Lenient), RFC 6068's mailto, with several
	// addresses and header fields after "?".
	u, _, _ := urlkit.ParseMode("mailto:a@example.org,b@example.org?cc=c@example.org&subject=Lunch%20today&body=Noon%3F", urlkit.RFC3986)
	v, err := scheme.Parse(&u, urlkit.RFC3986)
	if err != nil {
		fmt.Println(err)
		return
	}
	m := v.(*scheme.Mailto)
	fmt.Println(m.To, m.Recipients())
	for _, f := range m.Fields {
		fmt.Printf("%s: %s\n", f.Name, f.Value)
	}
	fmt.Printf("body %q\n", m.Body)

	// In Lenient, also what the 1993-94 drafts allowed: FTP's type E
	// (EBCDIC), and the afs scheme.
	for _, s := range []string{"ftp://host.example/pub/data;type=e", "afs://cern.ch/user/timbl"} {
		u, _, _ := urlkit.ParseMode(s, urlkit.Lenient)
		v, _ := scheme.Parse(&u, urlkit.Lenient)
		switch v := v.(type) {
		case *scheme.FTP:
			fmt.Println("TYPE", v.TypeCommand())
		case *scheme.AFS:
			fmt.Println(v.GlobalPath())
		}
	}
	// Output:
	// rfc1738 urlkit: "http://joe:xxxxx@www.example/private": offset 7: a user name or password is not allowed in http URLs (RFC 1738 section 5, httpurl)
	// rfc3986 user joe
	// [a@example.org b@example.org] [a@example.org b@example.org c@example.org]
	// Cc: c@example.org
	// Subject: Lunch today
	// body "Noon?"
	// TYPE E
	// /afs/cern.ch/user/timbl
}

func ExampleHTTP_RequestURI() {
	u, _ := urlkit.Parse("http://www.example:8080/a%20b/c?q=1#top")
	v, _ := scheme.Parse(&u, urlkit.RFC1738)
	h := v.(*scheme.HTTP)
	fmt.Println(h.Host, h.Port, h.RequestURI())
	// Output:
	// www.example 8080 /a%20b/c?q=1
}

func ExampleFileFromPath() {
	f, err := scheme.FileFromPath("/home/joe/notes #1.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.URL())
	// Output:
	// file:///home/joe/notes%20%231.txt
}

func ExampleFTP_Login() {
	for _, s := range []string{"ftp://ftp.example/pub/", "ftp://joe@ftp.example/", "ftp://joe:pw@ftp.example/"} {
		u, _ := urlkit.Parse(s)
		v, _ := scheme.Parse(&u, urlkit.RFC1738)
		l := v.(*scheme.FTP).Login()
		fmt.Printf("anonymous %v user %q password given %v\n", l.Anonymous, l.User, l.HasPassword)
	}
	// Output:
	// anonymous true user "anonymous" password given false
	// anonymous false user "joe" password given false
	// anonymous false user "joe" password given true
}
