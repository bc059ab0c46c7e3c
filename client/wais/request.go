package wais

import (
	"bytes"
	"fmt"
	"strconv"
)

// ParseRequest decodes a request message (WAIS header and APDU) as this
// package writes them: an *InitRequest, a *SearchRequest (query type "3")
// or a *TextRequest (query type "1"). It is the inverse of the Marshal
// methods, for tests, fake servers and tools that show a request.
func ParseRequest(msg []byte) (any, error) {
	n, err := ParseHeader(msg, 0)
	if err != nil {
		return nil, err
	}
	if n != len(msg)-HeaderLen {
		return nil, &DecodeError{Offset: 0, Msg: fmt.Sprintf("WAIS header announces %d bytes, message has %d", n, len(msg)-HeaderLen)}
	}
	t, head, rest, err := splitAPDU(msg[HeaderLen:], HeaderLen)
	if err != nil {
		return nil, err
	}
	headOff := HeaderLen + 2
	restOff := headOff + len(head)
	switch t {
	case PDUInitRequest:
		return parseInitRequest(head, headOff)
	case PDUSearchRequest:
		return parseSearchRequest(head, rest, headOff, restOff)
	}
	return nil, &DecodeError{Offset: headOff, Msg: fmt.Sprintf("unexpected %v", t)}
}

func parseInitRequest(head []byte, off int) (*InitRequest, error) {
	r := &InitRequest{}
	d := &decoder{b: head, off: 1, base: off}
	for !d.done() {
		at := d.base + d.off
		tag, val, err := d.field()
		if err != nil {
			return nil, err
		}
		switch tag {
		case tagPreferredMessageSize:
			r.PreferredMessageSize, err = number(val, tag, at)
		case tagMaximumRecordSize:
			r.MaximumRecordSize, err = number(val, tag, at)
		case tagIDAuthentication:
			r.IDAuthentication = string(val)
		case tagImplementationID:
			r.ImplementationID = string(val)
		case tagImplementationName:
			r.ImplementationName = string(val)
		case tagImplementationVersion:
			r.ImplementationVersion = string(val)
		case tagReferenceID:
			r.ReferenceID = bytes.Clone(val)
		}
		if err != nil {
			return nil, err
		}
	}
	return r, nil
}

func parseSearchRequest(head, rest []byte, headOff, restOff int) (any, error) {
	d := &decoder{b: head, off: 1, base: headOff}
	max, err := d.fixed(3, "small-set upper bound")
	if err != nil {
		return nil, err
	}
	if _, err := d.fixed(7, "search fixed part"); err != nil {
		return nil, err
	}
	var database, queryType string
	var ref []byte
	for !d.done() {
		tag, val, err := d.field()
		if err != nil {
			return nil, err
		}
		switch tag {
		case tagDatabaseNames:
			database = string(val)
		case tagQueryType:
			queryType = string(val)
		case tagReferenceID:
			ref = bytes.Clone(val)
		}
	}
	switch queryType {
	case QueryRelevanceFeedback:
		r := &SearchRequest{Database: database, MaxDocuments: int(max), ReferenceID: ref}
		err := eachUserField(rest, restOff, func(tag uint64, val []byte, at int) error {
			var err error
			last := len(r.Documents) - 1
			switch tag {
			case tagSeedWords:
				r.SeedWords = string(val)
			case tagDocumentID, tagDocumentIDChunk:
				r.Documents = append(r.Documents, DocRef{DocID: bytes.Clone(val)})
			case tagType:
				if last >= 0 {
					r.Documents[last].Type = string(val)
				}
			case tagChunkStartID:
				if last >= 0 {
					r.Documents[last].Start, err = number(val, tag, at)
				}
			case tagChunkEndID:
				if last >= 0 {
					r.Documents[last].End, err = number(val, tag, at)
				}
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		return r, nil
	case QueryTextRetrieval:
		r := &TextRequest{Database: database, ReferenceID: ref}
		qd := &decoder{b: rest, base: restOff}
		tag, q, err := qd.field()
		if err != nil {
			return nil, err
		}
		if tag != tagQuery {
			return nil, &DecodeError{Offset: restOff, Msg: fmt.Sprintf("type-1 search without a query (field %d)", tag)}
		}
		if err := r.parseQuery(q, restOff+fieldHeadLen(tag, len(q))); err != nil {
			return nil, err
		}
		return r, nil
	}
	return nil, &DecodeError{Offset: headOff, Msg: fmt.Sprintf("query type %q", printable(queryType))}
}

// parseQuery reads the terms of a text retrieval query.
func (r *TextRequest) parseQuery(q []byte, off int) error {
	d := &decoder{b: q, base: off}
	attrs := ""
	for !d.done() {
		at := d.base + d.off
		tag, val, err := d.field()
		if err != nil {
			return err
		}
		switch tag {
		case tagAttributeList:
			attrs = string(val)
		case tagTerm:
			switch attrs[:min(len(attrs), 5)] {
			case "un re":
				r.DocID = bytes.Clone(val)
			case "wt re":
				r.Type = string(val)
			case "wb ro", "wb rl":
				n, err := strconv.ParseInt(string(val), 10, 64)
				if err != nil || n < 0 {
					return &DecodeError{Offset: at, Msg: fmt.Sprintf("byte position %q", printable(string(val)))}
				}
				if attrs[3:5] == "ro" {
					r.Start = n
				} else {
					r.End = n
				}
			}
		}
	}
	return nil
}
