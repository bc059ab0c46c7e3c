package scheme

import (
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/schemedata"
)

// News is the view of a news URL (RFC 1738 3.6):
//
//	news:<newsgroup-name>
//	news:<message-id>
//	news:*
//
// A message-id (without its "<" ">") is told from a group name by its
// "@"; "*" means all available groups. News URLs name no server: the
// reader's own news server is used. Exactly one of All, Group and
// MessageID is set.
type News struct {
	All       bool   // news:*
	Group     string // decoded; a group name holds no "@"
	MessageID string // decoded, without "<" and ">"; it holds an "@"
	// Host and Port name the server of RFC 5538's news://HOST/GROUP,
	// read in the RFC3986 mode only; "" otherwise.
	Host, Port string
}

// parseNews5538 is parseNews that also reads RFC 5538's form with a
// server, news://HOST[:PORT]/GROUP or news://HOST/MESSAGE-ID (RFC 5538
// 2.1), which the RFC 3986 mode accepts and RFC 1738 does not.
func parseNews5538(u *urlkit.URL) (*News, error) {
	if !u.HasAuthority || u.Host == "" {
		return parseNews(u)
	}
	p, off, ok := urlPath(u)
	if !ok || p == "" {
		return nil, syntaxError(u, off, "RFC 5538's news URL names a group or a message-id after the server: news://HOST/GROUP")
	}
	n := &News{Host: u.Host, Port: port(u)}
	switch v := unescape(p); {
	case v == "*":
		n.All = true
	case strings.IndexByte(v, '@') >= 0:
		n.MessageID = v
	default:
		n.Group = v
	}
	return n, nil
}

// parseNews returns the view of an RFC 1738 news URL.
func parseNews(u *urlkit.URL) (*News, error) {
	off := layoutOf(u).ssp
	ssp := u.SchemeSpecificPart()
	if u.HasAuthority {
		// news://server/group is RFC 5538's form; RFC 1738's news URLs
		// name no server. (Even with an "@": "//u:pw@h" read as a
		// message-id would send what reads as h's password to the
		// reader's own server.)
		return nil, syntaxError(u, off, "news URLs name no server (RFC 1738 3.6): news:GROUP, news:MESSAGE-ID or news:*")
	}
	switch {
	case ssp == "":
		return nil, syntaxError(u, off, "a news URL names a newsgroup, a message-id (unique@host) or '*' (RFC 1738 3.6)")
	case ssp == "*":
		return &News{All: true}, nil
	}
	v := unescape(ssp)
	if strings.IndexByte(v, '@') >= 0 {
		return &News{MessageID: v}, nil
	}
	return &News{Group: v}, nil
}

// appendParts appends kind, group and message_id (and host, port for
// RFC 5538's form).
func (n *News) appendParts(dst []part) []part {
	dst = append(dst, kv("kind", str(n.Kind())), kv("group", opt(n.Group, !n.All && n.MessageID == "")),
		kv("message_id", opt(n.MessageID, n.MessageID != "")))
	if n.Host != "" {
		dst = append(dst, kv("host", str(n.Host)), kv("port", opt(n.Port, n.Port != "")))
	}
	return dst
}

// Kind returns "all", "article" or "group".
func (n *News) Kind() string {
	switch {
	case n.All:
		return "all"
	case n.MessageID != "":
		return "article"
	}
	return "group"
}

// URL builds the news URL: "news:*", the group (a group named "*" is
// written %2A), or the message-id with the "@" before its host left
// unencoded (and a first "/" of two written %2F: "news://" is RFC 5538's
// server form). With a Host, it is RFC 5538's news://HOST/..., where the
// message-id's "@" is written %40.
func (n *News) URL() *urlkit.URL {
	if n.Host != "" { // RFC 5538's form
		u := serverURL("news", n.Host, n.Port)
		switch {
		case n.All:
			u.Path = "/*"
		case n.MessageID != "":
			u.Path = "/" + escape(n.MessageID, &keepUchar)
		default:
			u.Path = "/" + escape(n.Group, &keepUchar)
		}
		return u
	}
	switch {
	case n.All:
		return opaqueURL("news", "*")
	case n.MessageID != "":
		unique, host := n.MessageID, ""
		if at := strings.LastIndexByte(unique, '@'); at >= 0 {
			unique, host = unique[:at], unique[at+1:]
		}
		ssp := escape(unique, &keepArticle) + "@" + escape(host, &keepUchar)
		if strings.HasPrefix(ssp, "//") {
			// "news://" would read as RFC 5538's server form.
			ssp = "%2F" + ssp[1:]
		}
		return opaqueURL("news", ssp)
	case n.Group == "*":
		return opaqueURL("news", "%2A")
	}
	return opaqueURL("news", escape(n.Group, &keepGroup))
}

// NNTP is the view of an nntp URL (RFC 1738 3.7):
//
//	nntp://<host>:<port>/<newsgroup-name>/<article-number>
type NNTP struct {
	Host  string // as written
	Port  string // the digits as written, "" for the default (119)
	Group string // decoded
	// Article is the article number's digits as written, "" when the URL
	// names only the group. (RFC 1738 says only "digits": a number of any
	// length reads and builds back unchanged; ArticleNumber converts it.)
	Article string

	// at holds where each part is written in the URL's String form.
	at nntpSpans
}

// nntpSpans are the spans of an nntp URL's parts (see Span).
type nntpSpans struct {
	authSpans
	Group, Article Span
}

// parseNNTP returns the view of an nntp URL.
func parseNNTP(u *urlkit.URL) (*NNTP, error) {
	if err := needAuthority(u); err != nil {
		return nil, err
	}
	n := &NNTP{Host: u.Host, Port: port(u), at: nntpSpans{authSpans: serverSpans(u)}}
	p, off, ok := urlPath(u)
	if !ok || p == "" {
		return nil, syntaxError(u, off-1+len(u.Path), "an nntp URL needs '/' and a newsgroup name after the host (RFC 1738 3.7)")
	}
	group, num, hasNum := strings.Cut(p, "/")
	n.Group, n.at.Group = unescape(group), Span{off, off + len(group)}
	if !hasNum {
		return n, nil
	}
	off += len(group) + 1
	n.at.Article = Span{off, off + len(num)}
	if num == "" {
		return nil, syntaxError(u, off, "an article number (digits) must follow the '/' after the newsgroup (RFC 1738 3.7)")
	}
	for i := 0; i < len(num); i++ {
		if c := num[i]; c < '0' || c > '9' {
			return nil, syntaxError(u, off+i, "the article number is digits only (RFC 1738 section 5, nntpurl)")
		}
	}
	n.Article = num
	return n, nil
}

// ArticleNumber returns the article number, and false when the URL names
// none or it does not fit in an int64.
func (n *NNTP) ArticleNumber() (int64, bool) {
	a, err := strconv.ParseInt(n.Article, 10, 64)
	return a, err == nil && n.Article != ""
}

// appendParts appends group and article (a number, null when absent).
func (n *NNTP) appendParts(dst []part) []part {
	var a value
	if n.Article != "" {
		a = value{Kind: schemedata.KindNumber, Str: n.Article}
	}
	return append(dst, kv("group", str(n.Group)), kv("article", a))
}

// URL builds the nntp URL, the group encoded for uchar.
func (n *NNTP) URL() *urlkit.URL {
	u := serverURL("nntp", n.Host, n.Port)
	p := "/" + escape(n.Group, &keepUchar)
	if n.Article != "" {
		p += "/" + escape(n.Article, &keepUchar)
	}
	setPath(u, p)
	return u
}

func init() {
	register(&unit{parse: func(u *urlkit.URL, m urlkit.Mode) (View, error) {
		if m == urlkit.RFC3986 {
			return nilView(parseNews5538(u))
		}
		return nilView(parseNews(u))
	}, concerns: newsConcerns, plan: newsPlan, proxied: true}, "news")
	register(&unit{parse: view(parseNNTP), concerns: nntpConcerns, plan: nntpPlan, proxied: true}, "nntp")
}

// newsConcerns: the group or message-id goes into an NNTP command,
// whose arguments are separated by spaces.
func newsConcerns(v View, c *concernList) {
	c.scan(c.u.SchemeSpecificPart(), c.l.ssp, ctlNNTP, "NNTP command argument (GROUP, ARTICLE)")
}

func nntpConcerns(v View, c *concernList) {
	// The login goes on AUTHINFO USER and AUTHINFO PASS lines (RFC 4643).
	c.scan(c.u.User, c.l.user, ctlLine, "NNTP AUTHINFO USER command")
	c.scan(c.u.Password, c.l.pass, ctlLine, "NNTP AUTHINFO PASS command")
	if n, _ := v.(*NNTP); n != nil {
		c.scanSpan(n.at.Group, ctlNNTP, "NNTP command argument (GROUP, ARTICLE)")
		c.scanSpan(n.at.Article, ctlNNTP, "NNTP command argument (GROUP, ARTICLE)")
		if len(n.Article) > maxArticleDigits {
			c.add(n.at.Article.At, true, "an article number of "+strconv.Itoa(len(n.Article))+" digits: NNTP's are at most "+strconv.Itoa(maxArticleDigits)+" (RFC 3977 6: up to 2^63-1, written without leading zeros)")
		}
	} else if p, off, ok := urlPath(c.u); ok {
		c.scan(p, off, ctlNNTP, "NNTP command argument (GROUP, ARTICLE)")
	}
}

// maxArticleDigits is the longest article number the NNTP client sends.
const maxArticleDigits = 18

func newsPlan(v View, p *planner) { p.news(v.(*News)) }

func nntpPlan(v View, p *planner) { p.nntp(v.(*NNTP)) }

func (p *planner) news(n *News) {
	switch {
	case p.opts.NNTPKept:
		p.nntpKept()
	case n.Host != "":
		p.connect(addr(n.Host, n.Port, "nntp"))
		p.comment("the server the URL names (RFC 5538 2.1's news://HOST/GROUP, read in the rfc3986 mode)")
	default:
		server := p.opts.NewsServer
		if !hasPort(server) {
			server = addr(server, "", "nntp") // HOST alone, as NNTPSERVER may give it
		}
		p.connect(server)
		p.comment("news URLs name no server: the reader's own news server is used, here %q (RFC 1738 3.6)", p.opts.NewsServer)
	}
	if !p.opts.NNTPKept {
		p.nntpStart()
		p.nntpLogin(p.opts.User, p.opts.Password)
	}
	switch {
	case p.opts.Post:
		p.nntpPost(n.Group, n.All || n.MessageID != "")
	case n.All:
		p.comment("news:* refers to all available newsgroups: the client lists them")
		p.line("LIST ACTIVE\r\n").Reply = "215 and the list"
		st := p.line("LIST\r\n")
		st.When, st.Reply = Cond{On: "LIST", Reply: "500 501", Text: "the server does not know LIST ACTIVE (an RFC 977 server: 500 or 501)"}, "215"
	case n.MessageID != "":
		p.comment("an article by its message-id, in the \"<\" \">\" the URL leaves out (RFC 977 ARTICLE)")
		// The "<" and ">" are the command's, not the URL's (RFC 5538
		// 2.2); a URL that encodes them anyway (%3C...%3E) gets one pair.
		id := n.MessageID
		if len(id) > 2 && id[0] == '<' && id[len(id)-1] == '>' {
			id = id[1 : len(id)-1]
		}
		p.send("ARTICLE", "<"+id+">", "ARTICLE <"+id+">\r\n").Reply = "220 and the article"
	default:
		p.nntpGroup(n.Group)
	}
	p.nntpEnd()
}

func (p *planner) nntp(n *NNTP) {
	if p.opts.NNTPKept {
		p.nntpKept()
	} else {
		p.connect(addr(n.Host, n.Port, "nntp"))
		p.nntpStart()
		user, pass := p.opts.User, p.opts.Password
		if p.u.HasUser {
			user, pass = unescape(p.u.User), unescape(p.u.Password)
		}
		p.nntpLogin(user, pass)
	}
	switch {
	case p.opts.Post:
		p.nntpPost(n.Group, n.Article != "")
	case n.Article != "":
		p.send("GROUP", n.Group, "GROUP "+n.Group+"\r\n").Reply = "211"
		p.comment("the article number is the server's own numbering within the group (RFC 1738 3.7)")
		p.send("ARTICLE", n.Article, "ARTICLE "+n.Article+"\r\n").Reply = "220 and the article"
	default:
		p.nntpGroup(n.Group)
	}
	p.nntpEnd()
}

// nntpKept stands for the connection, greeting and login of a URL read
// on a connection kept from an earlier URL (PlanOptions.NNTPKept).
func (p *planner) nntpKept() {
	p.flushCautions()
	p.comment("the connection of an earlier URL of this server and login is kept: no new connection, greeting or login (if the server has closed it meanwhile, the client opens a new one and starts again)")
}

// nntpEnd ends the session with QUIT, or with PlanOptions.KeepNNTP keeps
// it for the next URL (a reading session only: a posting ends).
func (p *planner) nntpEnd() {
	if p.opts.KeepNNTP && !p.opts.Post {
		p.comment("the connection is kept for the next URL of this server and login; QUIT ends it at the end of the run")
		return
	}
	p.line("QUIT\r\n")
}

// nntpGroup lists a group: GROUP gives its water marks, and OVER reads
// the overview of its articles in batches (constant memory).
func (p *planner) nntpGroup(group string) {
	p.send("GROUP", group, "GROUP "+group+"\r\n").Reply = "211 count low high group"
	p.comment("the group's articles, one line each (number, date, from, subject, message-id), from the overview database in batches of at most 1000 articles")
	st := p.send("OVER", "", "OVER ")
	st.Range, st.When, st.Reply, st.RFC = true, Cond{Text: "the group holds articles and the capabilities list OVER"}, "224 and the overview lines", "RFC 3977 8.3"
	st = p.send("XOVER", "", "XOVER ")
	st.Range, st.When, st.Reply, st.RFC = true, Cond{Text: "the group holds articles and the capabilities do not list OVER, or OVER is unknown (500 or 503)"}, "224 and the overview lines", "RFC 2980 2.8"
	st = p.send("LISTGROUP", group, "LISTGROUP "+group+" ")
	st.Range, st.When, st.Reply, st.Why, st.RFC = true, Cond{Text: "XOVER is unknown too (500 or 503)"}, "211 and the numbers", "the numbers of the batch's articles", "RFC 3977 6.1.2"
	st = p.send("HEAD", "", "HEAD ")
	st.Range, st.When, st.Reply, st.Why, st.RFC = true, Cond{Text: "LISTGROUP gave the batch's numbers, or is unknown too (then every number of the batch)"}, "221 and the header (423: no such article, skipped)", "each article's header, for its overview", "RFC 3977 6.2.2"
}

// nntpLogin is AUTHINFO USER and PASS (RFC 4643 2.3) when there is a
// user; the capabilities are read again after it.
func (p *planner) nntpLogin(user, pass string) {
	if user == "" {
		return
	}
	p.send("AUTHINFO USER", user, "AUTHINFO USER "+user+"\r\n").Reply = "381 (password required) or 281"
	st := p.send("AUTHINFO PASS", pass, "AUTHINFO PASS "+pass+"\r\n")
	st.When, st.Reply, st.Secret, st.RFC = Cond{On: "AUTHINFO USER", Reply: "381", Text: "the server replies 381"}, "281", true, "RFC 4643 2.3"
	st = p.line("CAPABILITIES\r\n")
	st.Why, st.Reply, st.RFC = "the capabilities may change after a login", "101 and the list", "RFC 4643 2.3.2"
}

// nntpPost posts the article read from standard input to group.
func (p *planner) nntpPost(group string, notGroup bool) {
	if notGroup || group == "" {
		p.unsupported(layoutOf(p.u).ssp, "an article is posted to a newsgroup: send takes news:GROUP or nntp://HOST/GROUP")
		return
	}
	p.comment("the article read from standard input, its header checked per RFC 5536 before anything is sent: Newsgroups %q from the URL (an article naming other groups is refused), a Message-ID and a Date added when absent", group)
	p.line("POST\r\n").Reply = "340 (send it) or 440 (posting not allowed)"
	p.add(Step{Kind: End, Text: "the article, dot-stuffed with CRLF line ends, then a line holding \".\"; the server answers 240 or 441", RFC: "RFC 3977 6.3.1"})
}

// nntpStart is how client/nntp opens a reading session: the greeting,
// CAPABILITIES (RFC 3977 5.2), and MODE READER unless the server lists
// READER already (RFC 3977 5.3), then CAPABILITIES again.
func (p *planner) nntpStart() {
	p.add(Step{Kind: Expect, Reply: "200 or 201", Text: "the server's greeting (posting allowed or not; RFC 977 2.4.3)"})
	st := p.line("CAPABILITIES\r\n")
	st.Reply, st.Why, st.RFC = "101 and the list (an RFC 977 server answers 500)", "what the server can do", "RFC 3977 5.2"
	st = p.line("MODE READER\r\n")
	st.When, st.Reply = Cond{On: "CAPABILITIES", Reply: "101", Lists: "MODE-READER !READER", Text: "the capabilities list MODE-READER, not READER (or there are none)",
		Or: &Cond{On: "CAPABILITIES", Reply: "101", Not: true, Text: "there are none: CAPABILITIES is refused (an RFC 977 server)"}}, "200 or 201"
	st = p.line("CAPABILITIES\r\n")
	st.When, st.Reply, st.Why, st.RFC = Cond{On: "MODE", Reply: "2xx", Text: "MODE READER was sent and the server knows CAPABILITIES",
		And: &Cond{On: "CAPABILITIES", Reply: "101", Text: "the server knows CAPABILITIES"}}, "101 and the list", "the capabilities change with the mode", "RFC 3977 5.3.2"
}

// hasPort reports whether hostport ends in ":PORT" (after the "]" of an
// IPv6 literal).
func hasPort(hostport string) bool {
	i := strings.LastIndexByte(hostport, ':')
	if i < 0 || i < strings.LastIndexByte(hostport, ']') || i == len(hostport)-1 {
		return false
	}
	for _, c := range hostport[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return strings.Count(hostport, ":") == 1 || strings.HasPrefix(hostport, "[")
}
