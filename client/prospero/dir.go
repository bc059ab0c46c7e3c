package prospero

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// do sends a request and parses the reply; a reply with an ERROR or
// FAILURE line fails with it (*ProtocolError, *Failure), the parsed reply
// returned too.
func (c *Client) do(ctx context.Context, addr string, req []byte) (*Reply, error) {
	msg, err := c.Exchange(ctx, addr, req)
	if err != nil {
		return nil, err
	}
	r, err := ParseReply(msg)
	if err != nil {
		return nil, err
	}
	return r, r.Err()
}

// List lists the directory hsoname on the server at addr: its links, each
// with the attributes asked for (see ListRequest for components and
// attrs). A directory with no links gives an empty list; a file gives a
// *Failure with code NOT-A-DIRECTORY.
func (c *Client) List(ctx context.Context, addr, hsoname string, components, attrs []string) ([]Link, error) {
	req, err := c.ListRequest(hsoname, components, attrs)
	if err != nil {
		return nil, err
	}
	r, err := c.do(ctx, addr, req)
	if err != nil {
		return nil, err
	}
	return r.Links, nil
}

// ObjectInfo returns the attributes of the object hsoname (see
// ObjectInfoRequest).
func (c *Client) ObjectInfo(ctx context.Context, addr, hsoname string, attrs ...string) ([]Attribute, error) {
	req, err := c.ObjectInfoRequest(hsoname, attrs...)
	if err != nil {
		return nil, err
	}
	r, err := c.do(ctx, addr, req)
	if err != nil {
		return nil, err
	}
	return r.Attributes, nil
}

// ErrNoContents reports an object whose reply carried no CONTENTS
// attribute: its data is elsewhere (see its ACCESS-METHOD) or it is not a
// file.
var ErrNoContents = errors.New("prospero: no CONTENTS attribute")

// Contents returns the data of the file hsoname, from its CONTENTS
// attribute ("ATTRIBUTE OBJECT INTRINSIC CONTENTS SEQUENCE DATA text"):
// the value after DATA, a single token, which may hold any byte but NUL
// (quoted by the server).
func (c *Client) Contents(ctx context.Context, addr, hsoname string) ([]byte, error) {
	attrs, err := c.ObjectInfo(ctx, addr, hsoname, "CONTENTS")
	if err != nil {
		return nil, err
	}
	for _, a := range attrs {
		if a.Name != "CONTENTS" {
			continue
		}
		if len(a.Values) >= 2 && a.Values[0] == "DATA" {
			return []byte(strings.Join(a.Values[1:], " ")), nil
		}
		return nil, fmt.Errorf("%w: CONTENTS value %q is not DATA", ErrNoContents, printable(strings.Join(a.Values, " ")))
	}
	return nil, ErrNoContents
}
