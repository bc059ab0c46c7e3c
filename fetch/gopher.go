package fetch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/client/gopher"
	"github.com/urlkit/urlkit/internal/request"
	"github.com/urlkit/urlkit/internal/wire"
	"github.com/urlkit/urlkit/scheme"
)

// Media types of gopher responses that have no other name.
const (
	// gopherMenuType is the ContentType of a Gopher menu (types 1 and 7).
	gopherMenuType = "application/gopher-menu"
	// gopherAttributesType is the ContentType of the attribute blocks
	// answering a Gopher+ "!" or "$" request.
	gopherAttributesType = "application/gopher+-attributes"
)

// GopherOpener opens gopher: URLs for a Fetcher (its Gopher field): RFC
// 1738 section 3.4, RFC 1436, and Gopher+ as draft-ietf-uri-url-06
// 3.4.1-3.4.9 describes it. Its zero value is ready to use.
//
// The request line is the decoded selector, then TAB and the search when
// the URL has one, then TAB and the Gopher+ string when it has one, and
// CRLF. For an item that is not a search (type other than 7) with an
// empty search and a Gopher+ string, the empty search field is left out
// ("selector TAB +"), as Gopher+ itself and draft-06 3.4.3 specify.
//
// The Body is the response as the server sent it, after the Gopher+
// header if there is one: a menu with its "." line if the server sent one,
// text still dot-stuffed. Render turns it into text for people.
//
// Gopher+ strings: "+" or "+VIEW LANGUAGE" asks for the item's data (in a
// view); "!" and "$" (optionally followed by attribute names) for the
// attributes of the item or of every item of a menu, ContentType
// "application/gopher+-attributes"; "?" for an item with an ASK form: its +ASK block
// is fetched, Fetcher.Prompt asks each question (ErrNeedInput without
// it), and the answers are submitted. A Gopher+ string that is itself a
// filled-in form ("+%091%0D%0A+-1%0D%0A...%0D%0A.%0D%0A") is submitted as
// it is: the one request whose CR LF the URL may encode.
//
// How the data ends: a Gopher+ "+N" header gives the byte count and a
// "+-1" header the "." line; a response that ends before either fails
// with ErrShortTransfer. A plain response (no Gopher+ header) to a menu
// (types 1 and 7) or text (type 0) should end with a "." line (RFC 1436),
// but pygopherd never sends it and Gophernicus not after files and CGI
// output, so its absence is not an error: Response.Warnings gets a
// warning naming the byte count when the Body reaches its end without it.
//
// A plain Gopher server reports a missing item with a type 3 menu line:
// a response whose first line is one is ErrNotFound. A Gopher+ error
// header with code 1 is ErrNotFound too.
type GopherOpener struct {
	// Client holds the Gopher client's settings (line limits); its
	// Trace is replaced by the Fetcher's.
	Client gopher.Client
}

// open carries out the access plan of the URL (scheme.PlanURL), the one
// "urlkit explain" prints: the request step's fields go to the Gopher
// client, which writes the line the plan shows (a test compares them
// with the wire against real servers).
func (o *GopherOpener) open(ctx context.Context, req *Request) (*Response, error) {
	plan, err := req.plan(scheme.PlanOptions{Mode: urlkit.Lenient})
	if err != nil {
		return nil, invalid(err)
	}
	if err := refused(plan); err != nil {
		return nil, err
	}
	var r *request.Gopher
	for _, st := range plan.Steps {
		if gr, ok := st.Request.(*request.Gopher); ok && gr != nil && r == nil {
			r = gr
		}
	}
	if r == nil {
		return nil, &Error{Op: "open", Offset: -1, Kind: ErrUnsupportedScheme, Rule: "the gopher access plan sends no request"}
	}
	v, err := viewOf[*scheme.Gopher](req.URL, urlkit.Lenient)
	if err != nil {
		return nil, err
	}
	typ := gopher.ItemType(v.Type)
	c := o.Client
	c.Trace = req.Trace
	c.Timeout = req.connectTimeout(c.Timeout)
	resp := &Response{Size: -1}
	gr, err := o.exchanges(ctx, req, &c, plan.Steps, r.Plus != nil && *r.Plus != "" || r.AskForm || r.Form != nil)
	if err != nil {
		return nil, err
	}
	if gr.Plus {
		resp.Reply = "+" + strconv.FormatInt(gr.Length, 10)
		if gr.Length >= 0 {
			resp.Size = gr.Length
		}
	}
	switch {
	case r.Attributes && gr.Plus:
		resp.ContentType = gopherAttributesType
	case r.Attributes:
		// A plain Gopher server ignores the Gopher+ field and sends the
		// item itself: say so rather than pass the item off as its
		// attributes (issue 10, D12).
		resp.Warnings = append(resp.Warnings, "the server answered the Gopher+ attribute request with the item itself, not its attributes: it does not speak Gopher+")
		resp.ContentType = gopherContentType(typ)
		resp.Listing = typ.IsMenu()
	default:
		resp.ContentType = gopherContentType(typ)
		resp.Listing = typ.IsMenu()
	}
	resp.DotStuffed = !typ.IsBinary() && !typ.IsMenu() && resp.ContentType != gopherAttributesType
	var body io.Reader = gr // binary data: read straight from the connection
	if !typ.IsBinary() && resp.ContentType != gopherAttributesType {
		br := bufio.NewReaderSize(gr, 32<<10)
		if err := gopherErrorItem(br); err != nil {
			gr.Close()
			return nil, err
		}
		body = br
	}
	gb := &gopherBody{r: body, c: gr}
	if !gr.Plus && (typ == gopher.TypeText || typ.IsMenu()) {
		gb.unterminated = func() {
			what := "text"
			if typ.IsMenu() {
				what = "menu"
			}
			resp.Warnings = append(resp.Warnings, fmt.Sprintf(
				"the server closed the connection after %d bytes without the \".\" line that ends a Gopher %s (RFC 1436): "+
					"if the data was cut short, nothing shows it (pygopherd never sends the \".\", Gophernicus not after files and CGI output)",
				gr.BytesRead(), what))
		}
	}
	resp.Body = gb
	if resp.Listing {
		resp.Entries = menuEntries(gb)
	}
	return resp, nil
}

// gopherContentType is the media type of an item type's response.
func gopherContentType(t gopher.ItemType) string {
	switch {
	case t.IsMenu():
		return gopherMenuType
	case t == gopher.TypeHTML:
		return "text/html"
	case t == gopher.TypeGIF:
		return "image/gif"
	case t.IsBinary():
		return "application/octet-stream"
	}
	return "text/plain"
}

// classify names the kind of the Gopher client's errors (see
// classifier).
func (o *GopherOpener) classify(err error) error {
	var pe *gopher.PlusError
	switch {
	case errors.As(err, &pe):
		if pe.Code == 1 {
			return ErrNotFound
		}
		return ErrStatus
	case errors.Is(err, gopher.ErrShortTransfer):
		return ErrShortTransfer
	case errors.Is(err, gopher.ErrMalformedAttributes), errors.Is(err, gopher.ErrMalformedItem):
		return ErrProtocol
	}
	return nil
}

// gopherErrorItem reports a response whose first line is a type 3 (error)
// menu item, the way plain Gopher servers say an item does not exist. It
// waits for the first byte of the response, and returns the error of a
// response that fails before it.
func gopherErrorItem(br *bufio.Reader) error {
	line, err := br.Peek(1)
	switch {
	case err == io.EOF:
		return nil // an empty response
	case err != nil:
		return err
	case line[0] != byte(gopher.TypeError):
		return nil
	}
	// The first line, up to a bounded length.
	b, _ := br.Peek(min(br.Buffered(), 4096))
	if i := strings.IndexByte(string(b), '\n'); i >= 0 {
		b = b[:i]
	}
	it, perr := gopher.ParseItem(string(b))
	if perr != nil || strings.Count(string(b), "\t") < 3 {
		return nil
	}
	return &Error{Op: "open", Offset: -1, Kind: ErrNotFound, Err: fmt.Errorf("gopher: server error item: %s", it.Display)}
}

// exchanges carries out the plan's exchanges, one per Connect step: the
// request is the text of the Send steps after it, sent as it is, the
// user's answers filled in where a step says so (the search words of a
// type 7 item, the answers to an ASK form, whose questions the
// attributes of the exchange before tell). It returns the response of
// the last exchange; plus: it starts with a Gopher+ header.
func (o *GopherOpener) exchanges(ctx context.Context, req *Request, c *gopher.Client, steps []scheme.Step, plus bool) (*gopher.Response, error) {
	var addr string
	var request strings.Builder
	var answers []string // of the ASK form
	for _, st := range steps {
		switch {
		case st.Kind == scheme.Connect && addr != "":
			// The exchange before is the attributes of an ASK form.
			var err error
			if answers, err = o.askForm(ctx, req, c, addr, request.String()); err != nil {
				return nil, err
			}
			request.Reset()
			fallthrough
		case st.Kind == scheme.Connect:
			addr = st.Text
		case st.Kind != scheme.Send:
		case st.Answers && st.Text == "":
			for _, a := range answers {
				if strings.HasPrefix(a, ".") {
					a = "." + a // a dot-stuffed block
				}
				request.WriteString(a + "\r\n")
			}
		case st.Answers:
			words, err := o.askSearch(ctx, req, addr)
			if err != nil {
				return nil, err
			}
			request.WriteString(st.Text + words + "\r\n")
		default:
			request.WriteString(st.Text)
		}
	}
	if addr == "" || request.Len() == 0 {
		return nil, &Error{Op: "open", Offset: -1, Kind: ErrUnsupportedScheme, Rule: "the gopher access plan sends no request"}
	}
	return c.Send(ctx, addr, request.String(), plus)
}

// askSearch asks the user for the words of a search (type 7).
func (o *GopherOpener) askSearch(ctx context.Context, req *Request, addr string) (string, error) {
	if req.Prompt == nil {
		return "", &Error{Op: "open", Offset: -1, Kind: ErrNeedInput,
			Rule: "the URL names a Gopher search server (type 7) but no search string (%09 words), and there is no terminal to ask on"}
	}
	words, err := req.Prompt(ctx, Prompt{Text: "Search " + addr + " for"})
	if err != nil {
		return "", &Error{Op: "open", Offset: -1, Kind: ErrNeedInput, Err: err}
	}
	if strings.ContainsAny(words, "\t\r\n\x00") {
		return "", &Error{Op: "open", Offset: -1, Kind: ErrUnsafe, Rule: "the search words hold a TAB, CR, LF or NUL"}
	}
	return words, nil
}

// askForm sends request, the plan's request for the attributes of the
// item, and asks the questions of its +ASK block.
func (o *GopherOpener) askForm(ctx context.Context, req *Request, c *gopher.Client, addr, request string) ([]string, error) {
	gr, err := c.Send(ctx, addr, request, true)
	if err != nil {
		return nil, err
	}
	blocks, err := gr.Attributes()
	gr.Close()
	if err != nil {
		return nil, err
	}
	var questions []gopher.Question
	for _, b := range blocks {
		if b.Name == "ASK" {
			questions = b.Questions()
		}
	}
	if len(questions) == 0 {
		return nil, &Error{Op: "open", Offset: -1, Kind: ErrStatus, Err: fmt.Errorf("gopher: the item has no +ASK block")}
	}
	values := make([]string, 0, len(questions))
	for _, q := range questions {
		if q.Kind == "Note" || q.Kind == "Info" {
			continue // text for the user, no answer
		}
		if req.Prompt == nil {
			return nil, &Error{Op: "open", Offset: -1, Kind: ErrNeedInput,
				Rule: fmt.Sprintf("the item's Gopher+ ASK form asks %q and there is no terminal to ask on", q.Prompt)}
		}
		p := Prompt{Text: q.Prompt, Secret: q.Kind == "AskP"}
		switch q.Kind {
		case "Choose", "Select", "ChooseF":
			p.Choices = q.Defaults
		default:
			if len(q.Defaults) > 0 {
				p.Default = q.Defaults[0]
			}
		}
		v, err := req.Prompt(ctx, p)
		if err != nil {
			return nil, &Error{Op: "open", Offset: -1, Kind: ErrNeedInput, Err: err}
		}
		if err := wire.CheckArg(v, false); err != nil {
			return nil, &Error{Op: "open", Offset: -1, Kind: ErrUnsafe, Rule: "an answer holds a CR, LF or NUL"}
		}
		values = append(values, v)
	}
	return values, nil
}

// gopherBody reads the buffered response and closes the connection. At
// the end of a plain menu or text it checks for the "." line.
type gopherBody struct {
	r            io.Reader
	c            *gopher.Response
	unterminated func() // records the warning for a missing "." line; nil: no check
}

func (b *gopherBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err == io.EOF && b.unterminated != nil {
		if !b.c.Terminated() {
			b.unterminated()
		}
		b.unterminated = nil
	}
	return n, err
}

func (b *gopherBody) Close() error { return b.c.Close() }
