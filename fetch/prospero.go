package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/client/prospero"
	"github.com/urlkit/urlkit/internal/request"
	"github.com/urlkit/urlkit/internal/safetext"
	"github.com/urlkit/urlkit/scheme"
)

// prosperoListingType is the ContentType of a Prospero directory listing
// as text; with ProsperoOpener.JSON it is "application/json".
const prosperoListingType = "text/x-prospero-listing"

// ProsperoOpener opens prospero: URLs for a Fetcher (its Prospero field;
// RFC 1738 3.11) over ARDP/UDP (client/prospero), carrying out the plan "urlkit explain" prints: the
// hsoname is listed as a directory; a directory's Body is its listing
// (name, target type, host and hsoname, size and modification time from
// the attributes, and the prospero URL of each link, which may name
// another server: it is fetched by this opener with the same checks); a
// file (FAILURE NOT-A-DIRECTORY) gives its CONTENTS attribute, or, when
// it has none, the target of its AFTP or FTP access method, fetched as an
// ftp URL through the Fetcher (Request.Reopen). A FORWARDED reply (the
// object moved, maybe to another server) is followed the same way, as
// the prospero URL it names, at most 5 times: through the Fetcher's
// checks, this opener and its client.
//
// Fields: version (or object-version) 0, the current version, is the only
// one Prospero's servers implement and the only one accepted; other
// fields and the draft's %00 attributes are refused as unsupported
// before anything is sent.
type ProsperoOpener struct {
	// Client holds the ARDP settings (retries, limits), nil for the
	// defaults; each fetch uses a client with these settings and the
	// Fetcher's Trace.
	Client *prospero.Client
	// JSON makes a listing JSON objects, one per line, instead of text.
	JSON bool
}

// open carries out the access plan of the URL (scheme.PlanURL).
func (o *ProsperoOpener) open(ctx context.Context, req *Request) (*Response, error) {
	plan, err := req.plan(scheme.PlanOptions{Mode: urlkit.Lenient})
	if err != nil {
		return nil, invalid(err)
	}
	if err := refused(plan); err != nil {
		return nil, err
	}
	c := prospero.Client{Trace: req.Trace}
	if b := o.Client; b != nil {
		c.RetryTimeout, c.Retries, c.MaxWait, c.MaxTime = b.RetryTimeout, b.Retries, b.MaxWait, b.MaxTime
		c.MaxReply, c.MaxPackets, c.User = b.MaxReply, b.MaxPackets, b.User
	}
	var addr string
	for _, st := range plan.Steps {
		if st.Kind == scheme.Connect {
			addr = st.Text
		}
	}
	if addr == "" {
		return nil, &Error{Op: "open", Offset: -1, Kind: ErrUnsupportedScheme, Rule: "the prospero access plan connects nowhere"}
	}
	// The plan's requests in turn, each sent as it is, each after the
	// first on the condition its step holds: LIST; for a file (FAILURE
	// NOT-A-DIRECTORY) its CONTENTS; without them its access methods.
	out := newOutcomes(plan.Steps)
	for i, st := range plan.Steps {
		if st.Kind != scheme.Send || !out.holds(i) {
			continue
		}
		reply, err := o.exchange(ctx, &c, addr, st.Text)
		if to := forwarded(reply); to != "" {
			return followForward(ctx, req, to)
		}
		var f *prospero.Failure
		if errors.As(err, &f) {
			out.set(i, 0, f.Code)
			if out.rescued(i) {
				req.progress()
				continue
			}
		}
		if err != nil {
			return nil, err
		}
		req.progress()
		switch st.Op {
		case request.ProsperoList:
			return o.listing(addr, st.Arg, reply.Links, o.JSON || req.json)
		case request.ProsperoContents:
			if data, ok := contentsOf(reply.Attributes); ok {
				return bodyOf("text/plain", data), nil
			}
			out.set(i, 0, "") // no CONTENTS attribute
		case request.ProsperoAccess:
			return o.access(ctx, req, reply)
		}
	}
	return nil, &Error{Op: "open", Offset: -1, Kind: ErrUnsupportedScheme, Rule: "the prospero access plan retrieves nothing"}
}

// access fetches the data an ACCESS-METHOD reply names.
func (o *ProsperoOpener) access(ctx context.Context, req *Request, reply *prospero.Reply) (*Response, error) {
	target := ftpTarget(reply.Attributes)
	if target == "" {
		return nil, &Error{Op: "open", Offset: -1, Kind: ErrUnsupportedScheme, Err: fmt.Errorf("%w: and no AFTP or FTP access method urlkit can follow", prospero.ErrNoContents)}
	}
	if req.Reopen == nil {
		return nil, &Error{Op: "open", Offset: -1, Kind: ErrUnsupportedScheme, Rule: "the file's data is at " + target + ", and there is no Fetcher to fetch it"}
	}
	u, err := urlkit.Parse(target)
	if err != nil {
		return nil, &Error{Op: "open", Offset: -1, Kind: ErrProtocol, Rule: "the access method's target is no valid ftp URL", Err: err}
	}
	resp, err := req.Reopen(ctx, &u)
	if err != nil {
		return nil, err
	}
	resp.Warnings = append(resp.Warnings, "the file's data came from its access method: "+target)
	return resp, nil
}

// maxForwards bounds the FORWARDED replies followed for one fetch.
const maxForwards = 5

type forwardsKey struct{}

// forwarded returns the prospero URL a FORWARDED reply (Prospero protocol
// version 5: "the object ... has moved") names, or "".
//
//	FORWARDED host-type host-name hsoname-type hsoname version ...
func forwarded(r *prospero.Reply) string {
	if r == nil {
		return ""
	}
	for _, line := range r.Other {
		if !strings.HasPrefix(line, "FORWARDED ") {
			continue
		}
		f, err := prospero.Tokens(line)
		if err != nil || len(f) < 5 || f[1] != "INTERNET-D" || f[3] != "ASCII" {
			return ""
		}
		host, port := prosperoHost(f[2])
		if host == "" {
			return ""
		}
		v := scheme.Prospero{Host: host, Port: port, HSOName: f[4]}
		if len(f) > 5 && f[5] != "0" && f[5] != "" {
			v.HasVersion, v.Version = true, f[5]
		}
		return prosperoURL(v)
	}
	return ""
}

// followForward fetches the URL a FORWARDED reply names through the
// Fetcher (Request.Reopen): its checks (blocked ports, CR/LF/NUL in the
// hsoname), this opener and its client, at most maxForwards times.
func followForward(ctx context.Context, req *Request, to string) (*Response, error) {
	n, _ := ctx.Value(forwardsKey{}).(int)
	if n >= maxForwards {
		return nil, &Error{Op: "open", Offset: -1, Kind: ErrRedirect, Rule: fmt.Sprintf("more than %d FORWARDED replies (the last to %s)", maxForwards, safetext.Visible(to))}
	}
	if req.Reopen == nil {
		return nil, &Error{Op: "open", Offset: -1, Kind: ErrRedirect, Rule: "the object moved to " + safetext.Visible(to) + ", and there is no Fetcher to follow it"}
	}
	u, err := urlkit.Parse(to)
	if err != nil {
		return nil, &Error{Op: "open", Offset: -1, Kind: ErrProtocol, Rule: "a FORWARDED reply names no valid prospero URL", Err: err}
	}
	resp, err := req.Reopen(context.WithValue(ctx, forwardsKey{}, n+1), &u)
	if err != nil {
		return nil, err
	}
	resp.Warnings = append(resp.Warnings, "the object moved (FORWARDED): fetched from "+to)
	return resp, nil
}

// exchange sends one request message of the plan and parses the reply;
// the reply's first FAILURE or ERROR is the error.
func (o *ProsperoOpener) exchange(ctx context.Context, c *prospero.Client, addr, msg string) (*prospero.Reply, error) {
	b, err := c.Exchange(ctx, addr, []byte(msg))
	if err != nil {
		return nil, err
	}
	reply, err := prospero.ParseReply(b)
	if err != nil {
		return nil, err
	}
	if forwarded(reply) != "" {
		return reply, nil
	}
	return reply, reply.Err()
}

// contentsOf returns the data of a CONTENTS attribute ("SEQUENCE DATA
// text").
func contentsOf(attrs []prospero.Attribute) ([]byte, bool) {
	for _, a := range attrs {
		if a.Name == "CONTENTS" && len(a.Values) >= 2 && a.Values[0] == "DATA" {
			return []byte(strings.Join(a.Values[1:], " ")), true
		}
	}
	return nil, false
}

// ftpTarget returns the ftp URL of the first AFTP or FTP access method:
// "AFTP INTERNET-D host ASCII path mode" (Prospero protocol version 5,
// ACCESS-METHOD), mode BINARY or TEXT; "" when there is none.
func ftpTarget(attrs []prospero.Attribute) string {
	for _, a := range attrs {
		if a.Name != "ACCESS-METHOD" || len(a.Values) == 0 {
			continue
		}
		f := a.Values
		if len(f) == 1 {
			if t, err := prospero.Tokens(f[0]); err == nil {
				f = t
			}
		}
		if len(f) < 5 || (f[0] != "AFTP" && f[0] != "FTP") || f[1] != "INTERNET-D" || f[3] != "ASCII" {
			continue
		}
		host, port := prosperoHost(f[2])
		if host == "" || !strings.HasPrefix(f[4], "/") {
			continue
		}
		if f[0] == "FTP" {
			continue // an FTP method needs a user and password urlkit is not given
		}
		if port != "" {
			host += ":" + port
		}
		typ := ";type=i"
		if len(f) > 5 && f[5] == "TEXT" {
			typ = ";type=a"
		}
		var b strings.Builder
		b.WriteString("ftp://" + host)
		for _, seg := range strings.Split(f[4][1:], "/") {
			b.WriteByte('/')
			b.WriteString(escapeFTPSegment(seg))
		}
		b.WriteString(typ)
		if _, err := urlkit.Parse(b.String()); err != nil {
			continue // a host no URL can hold
		}
		return b.String()
	}
	return ""
}

// prosperoHost splits a Prospero host "name(port)" into host and port.
func prosperoHost(h string) (host, port string) {
	if i := strings.IndexByte(h, '('); i > 0 && strings.HasSuffix(h, ")") {
		p := h[i+1 : len(h)-1]
		if p != "" && strings.Trim(p, "0123456789") == "" {
			return h[:i], p
		}
		return "", ""
	}
	return h, ""
}

// prosperoEntry is one link of a Prospero directory listing as the
// prospero opener reports it. Server text is made printable.
type prosperoEntry struct {
	Name     string `json:"name"`
	Target   string `json:"target"` // FILE, DIRECTORY, ...
	Host     string `json:"host"`
	Hsoname  string `json:"hsoname"`
	Size     string `json:"size,omitempty"`     // the SIZE attribute ("15 bytes")
	Modified string `json:"modified,omitempty"` // LAST-MODIFIED, RFC 3339
	// URL is the prospero URL of the link's target ("" when its host
	// cannot be written in one).
	URL string `json:"url,omitempty"`
}

// prosperoEntries turns the links of a listing into prosperoEntries.
func prosperoEntries(links []prospero.Link) []prosperoEntry {
	out := make([]prosperoEntry, 0, len(links))
	for _, l := range links {
		e := prosperoEntry{Name: safetext.Visible(l.Name), Target: safetext.Visible(l.Target), Host: safetext.Visible(l.Host), Hsoname: safetext.Visible(l.Hsoname)}
		for _, a := range l.Attributes {
			if len(a.Values) == 0 {
				continue
			}
			switch a.Name {
			case "SIZE":
				e.Size = safetext.Visible(strings.Join(a.Values, " "))
			case "LAST-MODIFIED":
				if t, err := time.Parse("20060102150405Z", a.Values[0]); err == nil {
					e.Modified = t.UTC().Format(time.RFC3339)
				} else {
					e.Modified = safetext.Visible(a.Values[0])
				}
			}
		}
		if host, port := prosperoHost(l.Host); host != "" && l.HostType == "INTERNET-D" && l.HsonameType == "ASCII" {
			e.URL = prosperoLinkURL(host, port, l.Hsoname)
		}
		out = append(out, e)
	}
	return out
}

// prosperoLinkURL returns the prospero URL of a link's target, or ""
// when no URL names it (prosperoURL).
func prosperoLinkURL(host, port, hsoname string) string {
	return prosperoURL(scheme.Prospero{Host: host, Port: port, HSOName: hsoname})
}

// prosperoURL returns the URL of v, what a server sent, or "" when no URL
// names it: the URL must parse and read back as v's host, port, hsoname
// and version. A host no URL can hold is refused, and so is one that
// would read as another host and path ("a/" gives "prospero://a//", the
// hsoname "/" on host "a"; "a@evil" a user "a" on host "evil").
func prosperoURL(v scheme.Prospero) string {
	s := v.URL().String()
	u, err := urlkit.Parse(s)
	if err != nil {
		return ""
	}
	w, err := viewOf[*scheme.Prospero](&u, urlkit.Lenient)
	if err != nil || w.Host != v.Host || w.Port != v.Port || w.HSOName != v.HSOName || w.HasVersion != v.HasVersion || w.Version != v.Version {
		return ""
	}
	return s
}

// listing renders the links of the directory hsoname.
func (o *ProsperoOpener) listing(addr, hsoname string, links []prospero.Link, asJSON bool) (*Response, error) {
	entries := prosperoEntries(links)
	var resp *Response
	if asJSON {
		resp = bodyOf("application/json", jsonLines(entries))
	} else {
		var b bytes.Buffer
		fmt.Fprintf(&b, `Prospero directory "%s" on %s: %s`+"\n", safetext.Visible(hsoname), addr, plural(len(entries), "link"))
		for _, e := range entries {
			fmt.Fprintf(&b, "%-9s %-20s %12s  %-20s  %s %s\n", e.Target, e.Name, e.Size, e.Modified, e.Host, e.Hsoname)
			if e.URL != "" {
				fmt.Fprintf(&b, "          %s\n", e.URL)
			}
		}
		resp = bodyOf(prosperoListingType, b.Bytes())
	}
	resp.Listing = true
	return resp, nil
}

// classify names the kind of the Prospero client's errors (see
// classifier).
func (o *ProsperoOpener) classify(err error) error {
	var f *prospero.Failure
	switch {
	case errors.As(err, &f):
		switch f.Code {
		case "NOT-FOUND":
			return ErrNotFound
		case "NOT-AUTHORIZED":
			return ErrAccessDenied
		}
		return ErrStatus
	case errors.Is(err, prospero.ErrUnsafeArg):
		return ErrUnsafe
	case errors.Is(err, prospero.ErrTimeout):
		return ErrTimeout
	case errors.Is(err, prospero.ErrRefused):
		return ErrConnect
	case errors.Is(err, prospero.ErrMalformed), errors.Is(err, prospero.ErrNameTooLong), errors.Is(err, prospero.ErrTooLarge):
		// ErrTooLarge: past the client's own bounds on one reply (bytes,
		// packets), not --max-filesize's: no option to point to.
		return ErrProtocol
	}
	var pe *prospero.ProtocolError
	if errors.As(err, &pe) {
		return ErrProtocol
	}
	return nil
}

// escapeFTPSegment encodes a path segment for RFC 1738's fsegment: every
// byte but the unreserved ones as %XX (the path is sent decoded).
func escapeFTPSegment(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*()$+,", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
