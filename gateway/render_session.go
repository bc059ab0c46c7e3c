package gateway

import (
	"net"
	"net/http"
	"strings"

	"github.com/urlkit/urlkit/scheme"
)

// sessionPage says what a telnet, rlogin or tn3270 URL designates: an
// interactive session, which a web page cannot hold (RFC 1738 3.8).
type sessionPage struct {
	pageHead
	Session     string
	Host, Port  string
	User        string
	HasPassword bool
	Password    string
	Command     string // urlkit's command that opens it
	Client      string // the classic client's command
}

// session renders the page of a session URL: the host, the login and
// its advisory password (RFC 1738: "the user name and password are
// advisory only"), the RFC's warning, and the commands that open it.
func (q *query) session(v *scheme.Telnet) {
	port := v.Port
	def := "23"
	if v.Session == "rlogin" {
		def = "513"
	}
	if port == "" {
		port = def
	}
	p := sessionPage{
		pageHead:    pageHead{Title: v.Session + " session", URL: q.redacted()},
		Session:     v.Session,
		Host:        v.Host,
		Port:        port,
		User:        v.User,
		HasPassword: v.HasPassword,
		Password:    v.Password,
	}
	p.Command = "urlkit get " + shellQuote(v.URL().String())
	switch v.Session {
	case "rlogin":
		p.Client = "rlogin"
		if v.User != "" {
			p.Client += " -l " + shellQuote(v.User)
		}
		p.Client += " " + shellQuote(v.Host)
	case "tn3270":
		p.Client = "c3270 " + shellQuote(net.JoinHostPort(trimBrackets(v.Host), port))
	default:
		p.Client = "telnet"
		if v.User != "" {
			p.Client += " -l " + shellQuote(v.User)
		}
		p.Client += " " + shellQuote(trimBrackets(v.Host)) + " " + port
	}
	q.wf.render(q.w, q.r, http.StatusOK, "session", p)
}

func trimBrackets(h string) string {
	if len(h) > 1 && h[0] == '[' && h[len(h)-1] == ']' {
		return h[1 : len(h)-1]
	}
	return h
}

// shellQuote quotes s for a POSIX shell when it holds anything but
// plain characters.
func shellQuote(s string) string {
	plain := s != ""
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' || c == '/' || c == ':' || c == '@' || c == '[' || c == ']') {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	out := "'"
	for _, c := range s {
		if c == '\'' {
			out += `'\''`
		} else {
			out += string(c)
		}
	}
	return out + "'"
}

// composePage is the form of a mailto URL: the address, the URL's
// header fields and body as the form's defaults; it sends only with
// --allow-send and --smtp.
type composePage struct {
	pageHead
	To      string
	Subject string
	Body    string
	CanSend bool
	Why     string
	Action  string
}

// mailto serves a mailto URL: the compose form (GET) and its sending
// (POST, guarded against cross-site requests).
func (q *query) mailto(v *scheme.Mailto) {
	canSend := q.wf.cfg.AllowSend && q.wf.cfg.SMTP != "" && q.wf.cfg.Send != nil
	why := ""
	switch {
	case !q.wf.cfg.AllowSend:
		why = "Sending is off: the gateway runs without --allow-send."
	case q.wf.cfg.SMTP == "":
		why = "Sending is off: the gateway has no --smtp server."
	}
	if q.r.Method == http.MethodPost {
		if !canSend {
			q.fail(http.StatusForbidden, why)
			return
		}
		if err := q.r.ParseForm(); err != nil {
			q.fail(http.StatusBadRequest, "the form does not read: "+err.Error())
			return
		}
		subject := q.r.PostForm.Get("subject")
		if subject != oneLine(subject) {
			q.fail(http.StatusBadRequest, "the subject is one line")
			return
		}
		msg := "Subject: " + subject + "\r\n\r\n" + strings.ReplaceAll(strings.ReplaceAll(q.r.PostForm.Get("body"), "\r\n", "\n"), "\n", "\r\n")
		q.send(msg, "Sent to "+v.Address)
		return
	}
	p := composePage{pageHead: pageHead{Title: "Mail to " + v.Address, URL: q.redacted()}, To: v.Address, Body: v.Body, CanSend: canSend, Why: why, Action: q.self()}
	for _, f := range v.Fields {
		if strings.EqualFold(f.Name, "subject") {
			p.Subject = f.Value
		}
	}
	q.wf.render(q.w, q.r, http.StatusOK, "compose", p)
}

// waisForm serves a WAIS database URL (no search, no document): the
// search form, and the redirect of its answer to the search URL.
func (q *query) waisForm(v *scheme.WAIS) bool {
	if v.HasSearch || v.HasDocument {
		return false
	}
	if s, ok := q.params["search"]; ok {
		w := *v
		w.Search, w.HasSearch = strings.Join(s, " "), true
		q.redirectTo(w.URL().String())
		return true
	}
	p := q.waisSearch()
	p.Title = "Search the WAIS database " + v.Database
	q.wf.render(q.w, q.r, http.StatusOK, "search", *p)
	return true
}

// waisSearch is the search form of the URL's WAIS database.
func (q *query) waisSearch() *searchPage {
	v, ok := q.view.(*scheme.WAIS)
	if !ok {
		return nil
	}
	db := scheme.WAIS{Host: v.Host, Port: v.Port, Database: v.Database}
	return &searchPage{pageHead: pageHead{Title: "Search", URL: q.redacted()}, Action: gatewayHref(db.URL().String()), Field: "search"}
}
