package scheme

import (
	"strconv"

	"github.com/urlkit/urlkit"
)

// Telnet is the view of a telnet URL (RFC 1738 3.8) and of RFC 1630's
// rlogin and tn3270 URLs:
//
//	telnet://<user>:<password>@<host>:<port>/
//
// The URL designates an interactive service, not a data object. The user
// name and password are advisory only: a client tells the user what they
// suggest. The final "/" may be omitted.
type Telnet struct {
	Session     string // the scheme: "telnet", "rlogin" or "tn3270"
	User        string // decoded; see HasUser
	Password    string // decoded; see HasPassword
	HasUser     bool
	HasPassword bool
	Host        string // as written
	Port        string // the digits as written, "" for the default (23; rlogin 513)

	// At holds where each part is written in the URL's String form.
	At Server
}

// ParseTelnet returns the view of a telnet, rlogin or tn3270 URL.
func ParseTelnet(u *urlkit.URL) (*Telnet, error) {
	if err := expect(u, "telnet", "rlogin", "tn3270"); err != nil {
		return nil, err
	}
	if err := needAuthority(u); err != nil {
		return nil, err
	}
	if u.HasQuery || (u.Path != "" && u.Path != "/") {
		return nil, syntaxError(u, layoutOf(u).path+1, "a "+u.SchemeName()+" URL ends after the host and port, with an optional '/' (RFC 1738 3.8)")
	}
	t := &Telnet{Session: u.SchemeName(), Host: u.Host, Port: port(u), HasUser: u.HasUser, HasPassword: u.HasPassword, At: serverSpans(u)}
	t.User, _ = u.DecodedUser()
	t.Password, _ = u.DecodedPassword()
	return t, nil
}

// Scheme returns the session's scheme ("telnet" when Session is empty).
func (t *Telnet) Scheme() string {
	if t.Session == "" {
		return "telnet"
	}
	return t.Session
}

// URL builds the URL with its final "/".
func (t *Telnet) URL() *urlkit.URL {
	u := serverURL(t.Scheme(), t.Host, t.Port)
	setLogin(u, t.User, t.Password, t.HasUser, t.HasPassword)
	u.Path = "/"
	return u
}

func init() {
	register(&unit{parse: view(ParseTelnet), concerns: telnetConcerns, plan: telnetPlan}, "telnet", "rlogin", "tn3270")
}

// telnetConcerns: telnet's user and password are advisory (shown, never
// sent); rlogin sends the user name in its NUL-separated handshake.
func telnetConcerns(v View, c *concernList) {
	if c.u.SchemeName() == "rlogin" {
		c.scan(c.u.User, c.l.user, ctlNUL, "rlogin handshake (user name)")
	}
}

func telnetPlan(v View, p *planner) {
	t := v.(*Telnet)
	p.connect(addr(t.Host, t.Port, t.Scheme()))
	switch t.Scheme() {
	case "rlogin":
		remote := "the local user name again"
		if t.HasUser {
			remote = strconv.Quote(t.User) + " from the URL"
		}
		p.comment("rlogin: an interactive session (RFC 1630); the client opens it with the handshake of RFC 1282: NUL, the local user name, NUL, the remote user name (%s), NUL, the terminal type and speed, NUL", remote)
		if t.HasPassword {
			p.comment("the URL suggests a password: advisory only, rlogin sends none; the client tells the user if the server asks")
		}
		return
	case "tn3270":
		p.comment("tn3270: an interactive session with IBM 3270 terminal emulation (RFC 1630), over telnet")
	default:
		p.comment("telnet: an interactive service, not a data object (RFC 1738 3.8): the client connects the user's terminal to it")
	}
	if t.HasUser {
		advice := "user name " + strconv.Quote(t.User)
		if t.HasPassword {
			advice += " and a password"
		}
		p.comment("the URL suggests the %s: advisory only, the client tells the user (RFC 1738 3.8)", advice)
	}
}
