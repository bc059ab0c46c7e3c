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
	p, err := splitMessage(msg)
	if err != nil {
		return nil, err
	}
	switch p.typ {
	case PDUInitRequest:
		return parseInitRequest(p)
	case PDUSearchRequest:
		return parseSearchRequest(p)
	}
	return nil, p.unexpected()
}

func parseInitRequest(p apduParts) (*InitRequest, error) {
	r := &InitRequest{}
	fs := initFields(&r.PreferredMessageSize, &r.MaximumRecordSize,
		&r.ImplementationID, &r.ImplementationName, &r.ImplementationVersion, &r.ReferenceID)
	fs[tagIDAuthentication] = &r.IDAuthentication
	if err := (&decoder{b: p.head, off: 1, base: p.headOff}).decode(fs); err != nil {
		return nil, err
	}
	return r, nil
}

func parseSearchRequest(p apduParts) (any, error) {
	d := &decoder{b: p.head, off: 1, base: p.headOff}
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
		if err := eachUserField(p, r.userFields().set); err != nil {
			return nil, err
		}
		return r, nil
	case QueryTextRetrieval:
		r := &TextRequest{Database: database, ReferenceID: ref}
		qd := &decoder{b: p.rest, base: p.restOff}
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
	return nil, &DecodeError{Offset: p.headOff, Msg: fmt.Sprintf("query type %q", printable(queryType))}
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
