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
	err := (&decoder{b: head, off: 1, base: off}).decode(fieldSet{
		tagPreferredMessageSize:  &r.PreferredMessageSize,
		tagMaximumRecordSize:     &r.MaximumRecordSize,
		tagIDAuthentication:      &r.IDAuthentication,
		tagImplementationID:      &r.ImplementationID,
		tagImplementationName:    &r.ImplementationName,
		tagImplementationVersion: &r.ImplementationVersion,
		tagReferenceID:           &r.ReferenceID,
	})
	if err != nil {
		return nil, err
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
	err = d.decode(fieldSet{tagDatabaseNames: &database, tagQueryType: &queryType, tagReferenceID: &ref})
	if err != nil {
		return nil, err
	}
	switch queryType {
	case QueryRelevanceFeedback:
		r := &SearchRequest{Database: database, MaxDocuments: int(max), ReferenceID: ref}
		if err := eachUserField(rest, restOff, r.userFields().set); err != nil {
			return nil, err
		}
		return r, nil
	case QueryTextRetrieval:
		r := &TextRequest{Database: database, ReferenceID: ref}
		qd := &decoder{b: rest, base: restOff}
		at := qd.base + qd.off
		tag, q, err := qd.field()
		if err != nil {
			return nil, err
		}
		if tag != tagQuery {
			return nil, &DecodeError{Offset: at, Msg: fmt.Sprintf("type-1 search without a query (field %d)", tag)}
		}
		if err := r.parseQuery(q, qd.base+qd.off-len(q)); err != nil {
			return nil, err
		}
		return r, nil
	}
	return nil, &DecodeError{Offset: headOff, Msg: fmt.Sprintf("query type %q", printable(queryType))}
}

// userFields says where the user information of a relevance-feedback
// search goes: the seed words, and each DocID with the type and range
// that follow it.
func (r *SearchRequest) userFields() fieldSet {
	fs := fieldSet{tagSeedWords: &r.SeedWords}
	newDoc := func(f field) error {
		r.Documents = append(r.Documents, DocRef{DocID: bytes.Clone(f.val)})
		// The fields after a DocID describe it: point them at the new
		// last document (append may have moved the earlier ones, which
		// are not written again). Before the first DocID they are skipped.
		d := &r.Documents[len(r.Documents)-1]
		fs[tagType], fs[tagChunkStartID], fs[tagChunkEndID] = &d.Type, &d.Start, &d.End
		return nil
	}
	fs[tagDocumentID], fs[tagDocumentIDChunk] = newDoc, newDoc
	return fs
}

// parseQuery reads the terms of a text retrieval query.
func (r *TextRequest) parseQuery(q []byte, off int) error {
	attrs := ""
	return (&decoder{b: q, base: off}).each(func(f field) error {
		val := f.val
		switch f.tag {
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
					return &DecodeError{Offset: f.at, Msg: fmt.Sprintf("byte position %q", printable(string(val)))}
				}
				if attrs[3:5] == "ro" {
					r.Start = n
				} else {
					r.End = n
				}
			}
		}
		return nil
	})
}
