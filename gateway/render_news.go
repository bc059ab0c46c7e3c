package gateway

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/http"
	"net/mail"
	"net/textproto"
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"

	"github.com/urlkit/urlkit/internal/safetext"
	"github.com/urlkit/urlkit/scheme"
)

// maxArticle bounds the article read for a page (headers and body).
const maxArticle = 4 << 20

// articlePage is a news article or a mail message (news:, nntp:, mid:):
// its header fields, References and Message-ID as news: links, its text,
// and its MIME parts as cid: links.
type articlePage struct {
	pageHead
	Headers []headerLine
	Body    string
	Parts   []partLink
	Err     string
}

type headerLine struct {
	Name  string
	Value string
	Links []cell // message-ids or groups, linked
}

type partLink struct {
	Type, Name, Href string
}

// article renders a message (RFC 822/1036).
func (q *query) article(r io.Reader) {
	p := articlePage{pageHead: pageHead{Title: "Article", URL: q.redacted()}}
	m, err := mail.ReadMessage(bufio.NewReader(io.LimitReader(r, maxArticle)))
	if err != nil {
		p.Err = safetext.Visible("the article does not read: " + err.Error())
		q.wf.render(q.w, q.r, http.StatusOK, "article", p)
		return
	}
	isNews := true
	if _, ok := q.view.(*scheme.MID); ok {
		isNews = false
	}
	for _, name := range []string{"From", "Subject", "Date", "Newsgroups", "Message-ID", "References", "In-Reply-To", "Followup-To", "Organization", "To", "Cc"} {
		val := m.Header.Get(name)
		if val == "" {
			continue
		}
		h := headerLine{Name: name, Value: decodeHeader(val)}
		switch name {
		case "Message-ID", "References", "In-Reply-To":
			for _, id := range messageIDs(val) {
				href := newsHref(id)
				if !isNews {
					v := scheme.MID{ID: id}
					href = gatewayHref(v.URL().String())
				}
				h.Links = append(h.Links, cell{Text: "<" + id + ">", Href: href})
			}
		case "Newsgroups", "Followup-To":
			for _, g := range strings.Split(val, ",") {
				if g = strings.TrimSpace(g); g != "" {
					v := scheme.News{Group: g}
					h.Links = append(h.Links, cell{Text: g, Href: gatewayHref(v.URL().String())})
				}
			}
		case "Subject":
			p.Title = h.Value
		}
		if h.Links != nil {
			h.Value = ""
		}
		p.Headers = append(p.Headers, h)
	}
	mid := ""
	if ids := messageIDs(m.Header.Get("Message-ID")); len(ids) > 0 {
		mid = ids[0]
	}
	p.Body, p.Parts = messageBody(textproto.MIMEHeader(m.Header), m.Body, mid)
	q.wf.render(q.w, q.r, http.StatusOK, "article", p)
}

// messageIDs returns the message-ids of a header field ("<a@b> <c@d>"),
// without their "<" ">".
func messageIDs(v string) []string {
	var ids []string
	for {
		i := strings.IndexByte(v, '<')
		if i < 0 {
			return ids
		}
		j := strings.IndexByte(v[i:], '>')
		if j < 0 {
			return ids
		}
		if id := v[i+1 : i+j]; strings.Contains(id, "@") {
			ids = append(ids, id)
		}
		v = v[i+j+1:]
	}
}

// decodeHeader decodes RFC 2047 words, keeping the field as sent when
// they do not decode.
func decodeHeader(v string) string {
	d := mime.WordDecoder{CharsetReader: func(cs string, r io.Reader) (io.Reader, error) {
		enc := charsetEncoding(cs)
		if enc == nil {
			return nil, errUnknownCharset
		}
		if enc == encoding.Nop {
			return r, nil
		}
		return transform.NewReader(r, enc.NewDecoder()), nil
	}}
	if s, err := d.DecodeHeader(v); err == nil {
		return s
	}
	return v
}

type charsetError string

func (e charsetError) Error() string { return string(e) }

const errUnknownCharset = charsetError("unknown charset")

// messageBody returns the text of a message and its MIME parts: the
// first text/plain part is the text; every part is listed, those with a
// Content-ID linked as mid:MID/CID (RFC 2392).
func messageBody(h textproto.MIMEHeader, body io.Reader, mid string) (string, []partLink) {
	mt, params, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil || !strings.HasPrefix(mt, "multipart/") || params["boundary"] == "" {
		return partText(h, body), nil
	}
	var text string
	var parts []partLink
	mr := multipart.NewReader(body, params["boundary"])
	for len(parts) < 100 {
		part, err := mr.NextRawPart()
		if err != nil {
			break
		}
		pt, _, _ := mime.ParseMediaType(part.Header.Get("Content-Type"))
		if pt == "" {
			pt = "text/plain"
		}
		l := partLink{Type: pt, Name: part.FileName()}
		if ids := messageIDs(part.Header.Get("Content-ID")); len(ids) > 0 {
			l.Name = l.Name + " <" + ids[0] + ">"
			if mid != "" {
				v := scheme.MID{ID: mid + "/" + ids[0]}
				l.Href = gatewayHref(v.URL().String())
			} else {
				v := scheme.CID{ID: ids[0]}
				l.Href = gatewayHref(v.URL().String())
			}
		}
		if text == "" && pt == "text/plain" {
			text = partText(part.Header, part)
		}
		parts = append(parts, l)
	}
	return text, parts
}

// partText decodes a text part: its transfer encoding, then its charset
// (UTF-8 when it names none and is valid, else guessed like a file).
func partText(h textproto.MIMEHeader, body io.Reader) string {
	switch strings.ToLower(strings.TrimSpace(h.Get("Content-Transfer-Encoding"))) {
	case "quoted-printable":
		body = quotedprintable.NewReader(body)
	case "base64":
		body = base64.NewDecoder(base64.StdEncoding, body)
	}
	b, _ := io.ReadAll(io.LimitReader(body, maxArticle))
	_, params, _ := mime.ParseMediaType(h.Get("Content-Type"))
	enc := charsetEncoding(params["charset"])
	if enc == nil {
		enc = charsetEncoding(guessCharset(b))
	}
	if enc != encoding.Nop {
		if d, err := enc.NewDecoder().Bytes(b); err == nil {
			b = d
		}
	}
	return string(bytes.ToValidUTF8(visibleControls(b), []byte("\uFFFD")))
}

// postForm is the form that posts a follow-up to a group: only with
// --allow-post; it posts to the group's own page, guarded against
// cross-site requests (http.CrossOriginProtection).
type postForm struct {
	Action string
	Group  string
}

func (q *query) postForm(group string) *postForm {
	if !q.wf.cfg.AllowPost || q.wf.cfg.Send == nil {
		return nil
	}
	v := scheme.News{Group: group}
	return &postForm{Action: gatewayHref(v.URL().String()), Group: group}
}

// newsPost posts the form's article to the group (POST through the
// Transport, which posts a news: URL's body).
func (q *query) newsPost(v *scheme.News) {
	if !q.wf.cfg.AllowPost || q.wf.cfg.Send == nil {
		q.fail(http.StatusForbidden, "posting is off (the gateway runs without --allow-post)")
		return
	}
	if v.Group == "" {
		q.fail(http.StatusBadRequest, "an article is posted to a group")
		return
	}
	if err := q.r.ParseForm(); err != nil {
		q.fail(http.StatusBadRequest, "the form does not read: "+err.Error())
		return
	}
	from, subject, body := q.r.PostForm.Get("from"), q.r.PostForm.Get("subject"), q.r.PostForm.Get("body")
	if oneLine(from) == "" || oneLine(subject) == "" || from != oneLine(from) || subject != oneLine(subject) {
		q.fail(http.StatusBadRequest, "an article needs a From and a Subject, each on one line")
		return
	}
	msg := "From: " + from + "\r\nSubject: " + subject + "\r\nNewsgroups: " + v.Group + "\r\n\r\n" + strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\n", "\r\n")
	q.send(msg, "Posted to "+v.Group)
}

// oneLine is s without surrounding space; a value with a line break is
// not one line (the comparison with s fails).
func oneLine(s string) string {
	if strings.ContainsAny(s, "\r\n\x00") {
		return ""
	}
	return strings.TrimSpace(s)
}

// send hands a message to the gateway's Send (a news: posting, a
// mailto: submission) and shows the server's acceptance.
func (q *query) send(msg, done string) {
	sent, err := q.wf.cfg.Send(q.r.Context(), q.u, strings.NewReader(msg))
	if err != nil {
		q.fetchFailed(err)
		return
	}
	q.wf.render(q.w, q.r, http.StatusOK, "sent", sentPage{pageHead: pageHead{Title: done, URL: q.redacted()}, Reply: sent.Reply})
}

type sentPage struct {
	pageHead
	Reply string
}
