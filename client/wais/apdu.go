package wais

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Defaults of the request fields.
const (
	// DefaultMaxDocuments is the number of hits a search asks for when
	// SearchRequest.MaxDocuments is zero.
	DefaultMaxDocuments = 40
	// DefaultMessageSize is the preferred message size and maximum record
	// size an InitRequest announces when its fields are zero.
	DefaultMessageSize = 100000
)

// Query types of a SearchRequest (WAIS protocol specification 1.5, 3.1).
const (
	QueryRelevanceFeedback = "3" // seed words and relevance-feedback documents
	QueryTextRetrieval     = "1" // Z39.50 type-1: a document by DocID, type and byte range
)

// ElementSetText is the element set asking for a document's text.
const ElementSetText = "Document Text"

// InitRequest asks a server for its parameters (Z39.50-1988 4.1.1.1).
// freeWAIS answers searches without one; it is optional.
type InitRequest struct {
	PreferredMessageSize  int64 // default DefaultMessageSize
	MaximumRecordSize     int64 // default DefaultMessageSize
	IDAuthentication      string
	ImplementationID      string
	ImplementationName    string
	ImplementationVersion string
	ReferenceID           []byte
}

// Marshal returns the request as sent: WAIS header and APDU.
func (r *InitRequest) Marshal() ([]byte, error) {
	h := []byte{byte(PDUInitRequest)}
	h = appendField(h, tagProtocolVersion, []byte{0x80}) // version 1
	h = appendField(h, tagOptions, []byte{0x80})         // will search
	h = appendNumber(h, tagPreferredMessageSize, uint64(orDefault(r.PreferredMessageSize, DefaultMessageSize)))
	h = appendNumber(h, tagMaximumRecordSize, uint64(orDefault(r.MaximumRecordSize, DefaultMessageSize)))
	h = appendOptional(h, tagIDAuthentication, r.IDAuthentication)
	h = appendOptional(h, tagImplementationID, r.ImplementationID)
	h = appendOptional(h, tagImplementationName, r.ImplementationName)
	h = appendOptional(h, tagImplementationVersion, r.ImplementationVersion)
	if r.ReferenceID != nil {
		h = appendField(h, tagReferenceID, r.ReferenceID)
	}
	a, err := apdu(h, nil)
	if err != nil {
		return nil, err
	}
	return frame(a), nil
}

func orDefault(n, def int64) int64 {
	if n <= 0 {
		return def
	}
	return n
}

func appendOptional(b []byte, tag uint64, s string) []byte {
	if s == "" {
		return b
	}
	return appendStringField(b, tag, s)
}

// DocRef names a document, or a byte range of one, as relevance feedback
// in a search: the search then also looks for documents like it.
type DocRef struct {
	DocID []byte
	// Type is the document type from its Hit ("TEXT"); freeWAIS needs it
	// (its server process for the connection crashes without one).
	Type string
	// Start and End delimit the bytes [Start, End) used; both zero means
	// the whole document.
	Start, End int64
}

// SearchRequest is a WAIS search: query type "3", the seed words and any
// relevance-feedback documents in the user information (WAIS protocol
// specification 1.5, appendix A).
type SearchRequest struct {
	Database     string
	SeedWords    string
	Documents    []DocRef
	MaxDocuments int // default DefaultMaxDocuments
	ReferenceID  []byte
}

// Marshal returns the request as sent: WAIS header and APDU. The seed
// words and DocIDs are binary fields, sent exactly as given.
func (r *SearchRequest) Marshal() ([]byte, error) {
	max := r.MaxDocuments
	if max <= 0 {
		max = DefaultMaxDocuments
	}
	if max > 0xffffff {
		return nil, fmt.Errorf("wais: MaxDocuments %d exceeds 16777215", max)
	}
	h := searchHeader(uint64(max), r.Database, QueryRelevanceFeedback, "", r.ReferenceID)
	var u []byte
	u = appendStringField(u, tagSeedWords, r.SeedWords)
	for _, d := range r.Documents {
		whole := d.Start == 0 && d.End == 0
		if !whole && (d.Start < 0 || d.End <= d.Start) {
			return nil, fmt.Errorf("wais: relevance-feedback range [%d, %d) is empty or negative", d.Start, d.End)
		}
		if whole {
			u = appendField(u, tagDocumentID, d.DocID)
		} else {
			u = appendField(u, tagDocumentIDChunk, d.DocID)
		}
		if d.Type != "" {
			u = appendStringField(u, tagType, d.Type)
		}
		if whole {
			continue
		}
		u = appendNumber(u, tagChunkCode, chunkByte)
		u = appendNumber(u, tagChunkStartID, uint64(d.Start))
		u = appendNumber(u, tagChunkEndID, uint64(d.End))
	}
	u = appendNumber(u, tagDateFactor, 1) // no date weighting
	u = appendNumber(u, tagMaxDocuments, uint64(max))
	a, err := apdu(h, appendField(nil, tagUserInformation, u))
	if err != nil {
		return nil, err
	}
	return frame(a), nil
}

// chunkByte is Chunk-Code 1: ranges in bytes.
const chunkByte = 1

// searchHeader builds the header part of a Search APDU (Z39.50-1988
// 4.1.1.3): small-set upper bound, large-set lower bound and medium-set
// present number (3 bytes each) chosen so that every hit up to max comes
// with its header, the replace indicator, an unnamed result set.
func searchHeader(max uint64, database, queryType, elementSet string, ref []byte) []byte {
	h := []byte{byte(PDUSearchRequest)}
	h = appendFixed(h, max, 3)
	h = appendFixed(h, max+1, 3)
	h = appendFixed(h, max, 3)
	h = append(h, 1) // replace indicator
	h = appendStringField(h, tagResultSetName, "")
	h = appendStringField(h, tagDatabaseNames, database)
	h = appendStringField(h, tagQueryType, queryType)
	if elementSet != "" {
		// a single element set name: 0x1F, then the name (Z39.50-1988's
		// database/element-set list with the database left out)
		h = appendStringField(h, tagElementSetNames, "\x1f"+elementSet)
	}
	if ref != nil {
		h = appendField(h, tagReferenceID, ref)
	}
	return h
}

// TextRequest retrieves bytes [Start, End) of a document: a search of
// query type "1" asking for the element set "Document Text", whose query
// names the DocID, the document type and the byte range (the WAIS
// protocol's use of a Z39.50 type-1 query; freeWAIS returns no record
// without a range).
type TextRequest struct {
	Database    string
	DocID       []byte
	Type        string // e.g. "TEXT", from the hit's Types; empty: not sent
	Start, End  int64
	ReferenceID []byte
}

// Marshal returns the request as sent: WAIS header and APDU.
func (r *TextRequest) Marshal() ([]byte, error) {
	if r.Start < 0 || r.End <= r.Start {
		return nil, fmt.Errorf("wais: byte range [%d, %d) is empty or negative", r.Start, r.End)
	}
	h := searchHeader(1, r.Database, QueryTextRetrieval, ElementSetText, r.ReferenceID)
	var q []byte
	q = appendTerm(q, "un re ig ig ig ig", r.DocID) // system control number = DocID
	if r.Type != "" {
		q = appendTerm(q, "wt re ig ig ig ig", []byte(r.Type)) // WAIS type =
		q = appendStringField(q, tagOperator, "a")
	}
	q = appendTerm(q, "wb ro ig ig ig ig", strconv.AppendInt(nil, r.Start, 10)) // byte >=
	q = appendStringField(q, tagOperator, "a")
	q = appendTerm(q, "wb rl ig ig ig ig", strconv.AppendInt(nil, r.End, 10)) // byte <
	q = appendStringField(q, tagOperator, "a")
	a, err := apdu(h, appendField(nil, tagQuery, q))
	if err != nil {
		return nil, err
	}
	return frame(a), nil
}

// appendTerm appends a type-1 query term: its attributes (use, relation,
// position, structure, truncation, completeness; "ig" = ignore) and value.
func appendTerm(b []byte, attrs string, val []byte) []byte {
	b = appendStringField(b, tagAttributeList, attrs)
	return appendField(b, tagTerm, val)
}

// InitResponse is a server's answer to an InitRequest (Z39.50-1988
// 4.1.1.2, with the WAIS user information of the WAIS specification 2.2).
type InitResponse struct {
	Accepted              bool
	PreferredMessageSize  int64
	MaximumRecordSize     int64
	ImplementationID      string
	ImplementationName    string
	ImplementationVersion string
	ReferenceID           []byte
	ChunkCode             int64
	ChunkIDLength         int64
	ChunkMarker           string
	HighlightMarker       string
	DeHighlightMarker     string
	NewlineCharacters     string
}

// Hit is one document header of a search response.
type Hit struct {
	DocID      []byte
	Version    int64
	Score      int64
	BestMatch  int64
	Length     int64 // bytes; -1 when the server did not say
	Lines      int64 // -1 when the server did not say
	Types      []string
	Source     string
	Date       string
	Headline   string
	OriginCity string
}

// Text is a document text record: the answer to a TextRequest.
type Text struct {
	DocID   []byte
	Version int64
	Text    []byte
}

// SearchResponse is a server's answer to a SearchRequest or TextRequest
// (Z39.50-1988 4.1.1.4 with the WAIS records of the WAIS specification 4).
type SearchResponse struct {
	Status          int // search status byte (freeWAIS: 1 after a search, 0 after a retrieval)
	ResultCount     int64
	RecordsReturned int64
	NextPosition    int64
	PresentStatus   int64
	ReferenceID     []byte
	SeedWordsUsed   string
	Hits            []Hit
	Texts           []Text
	Diagnostics     []Diagnostic
}

// ErrDiagnostic matches (with errors.Is) every *Diagnostic.
var ErrDiagnostic = errors.New("wais: diagnostic")

// Diagnostic is a Z39.50-1988 diagnostic record (appendix D) sent by the
// server, e.g. code "S1" for an unavailable database. As an error it is
// returned when a response carries diagnostics and no records.
type Diagnostic struct {
	Code      string
	AddInfo   string
	Surrogate bool
}

// Error describes the diagnostic with its text made printable.
func (d *Diagnostic) Error() string {
	return "wais: diagnostic " + printable(d.Code) + ": " + printable(d.AddInfo)
}

// Is reports whether target is ErrDiagnostic.
func (d *Diagnostic) Is(target error) bool { return target == ErrDiagnostic }

// printable returns s with control and non-ASCII bytes Go-escaped.
func printable(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			q := strconv.QuoteToASCII(s)
			return q[1 : len(q)-1]
		}
	}
	return s
}

// ParseResponse decodes a message (WAIS header and APDU) from a server:
// an *InitResponse or a *SearchResponse. Every length is checked against
// the bytes present; unknown fields are skipped (Z39.50-1988 4.3).
func ParseResponse(msg []byte) (any, error) {
	p, err := splitMessage(msg)
	if err != nil {
		return nil, err
	}
	switch p.typ {
	case PDUInitResponse:
		return parseInitResponse(p)
	case PDUSearchResponse:
		return parseSearchResponse(p)
	}
	return nil, p.unexpected()
}

// initFields are the fields InitRequest and InitResponse share
// (Z39.50-1988 4.1.1.1 and 4.1.1.2).
func initFields(preferred, maxRecord *int64, id, name, version *string, ref *[]byte) fieldSet {
	return fieldSet{
		tagPreferredMessageSize:  preferred,
		tagMaximumRecordSize:     maxRecord,
		tagImplementationID:      id,
		tagImplementationName:    name,
		tagImplementationVersion: version,
		tagReferenceID:           ref,
	}
}

func parseInitResponse(p apduParts) (*InitResponse, error) {
	if len(p.head) < 2 {
		return nil, &DecodeError{Offset: p.headOff, Msg: "InitResponse fixed part cut short"}
	}
	r := &InitResponse{Accepted: p.head[1] != 0}
	d := &decoder{b: p.head, off: 2, base: p.headOff}
	err := d.decode(initFields(&r.PreferredMessageSize, &r.MaximumRecordSize,
		&r.ImplementationID, &r.ImplementationName, &r.ImplementationVersion, &r.ReferenceID))
	if err != nil {
		return nil, err
	}
	err = eachUserField(p, fieldSet{
		tagChunkCode:         &r.ChunkCode,
		tagChunkIDLength:     &r.ChunkIDLength,
		tagChunkMarker:       &r.ChunkMarker,
		tagHighlightMarker:   &r.HighlightMarker,
		tagDeHighlightMarker: &r.DeHighlightMarker,
		tagNewlineCharacters: &r.NewlineCharacters,
	}.set)
	return r, err
}

// eachUserField calls f for each element of the user information (the
// fields inside tag 99) after an APDU's header part, and for diagnostic
// records outside it.
func eachUserField(p apduParts, f func(field) error) error {
	d := &decoder{b: p.rest, base: p.restOff}
	return d.each(func(fl field) error {
		if fl.tag != tagUserInformation {
			return f(fl)
		}
		return (&decoder{b: fl.val, base: fl.valAt}).each(f)
	})
}

func parseSearchResponse(p apduParts) (*SearchResponse, error) {
	d := &decoder{b: p.head, off: 1, base: p.headOff}
	r := &SearchResponse{}
	status, err := d.fixed(1, "search status")
	if err != nil {
		return nil, err
	}
	r.Status = int(status)
	for _, n := range []*int64{&r.ResultCount, &r.RecordsReturned, &r.NextPosition} {
		v, err := d.fixed(3, "search response counts")
		if err != nil {
			return nil, err
		}
		*n = int64(v)
	}
	addDiagnostic := func(f field) error {
		r.Diagnostics = append(r.Diagnostics, parseDiagnostic(f.val))
		return nil
	}
	err = d.decode(fieldSet{
		tagPresentStatus: &r.PresentStatus,
		tagReferenceID:   &r.ReferenceID,
		tagDiagnostic:    addDiagnostic,
	})
	if err != nil {
		return nil, err
	}
	addHit := func(f field) error {
		h, err := parseHit(f.val, f.valAt)
		if err != nil {
			return err
		}
		r.Hits = append(r.Hits, h)
		return nil
	}
	err = eachUserField(p, fieldSet{
		tagSeedWordsUsed:    &r.SeedWordsUsed,
		tagDiagnostic:       addDiagnostic,
		tagHeaderGroup:      addHit,
		tagShortHeaderGroup: addHit,
		tagLongHeaderGroup:  addHit,
		tagHeadlineGroup:    addHit,
		tagCodeGroup:        addHit,
		tagTextGroup: func(f field) error {
			t, err := parseText(f.val, f.valAt)
			if err != nil {
				return err
			}
			r.Texts = append(r.Texts, t)
			return nil
		},
	}.set)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// parseDiagnostic splits a diagnostic record: code (2 bytes), text,
// surrogate byte, end-of-record byte (field guarantees the length).
func parseDiagnostic(val []byte) Diagnostic {
	body := val[:len(val)-2]
	return Diagnostic{
		Code:      string(body[:2]),
		AddInfo:   strings.TrimRight(string(body[2:]), "\x00"),
		Surrogate: val[len(val)-2] != 0,
	}
}

// parseHit decodes a document header group; off is its offset in the
// message.
func parseHit(b []byte, off int) (Hit, error) {
	h := Hit{Length: -1, Lines: -1}
	err := (&decoder{b: b, base: off}).decode(fieldSet{
		tagDocumentID:     &h.DocID,
		tagVersionNumber:  &h.Version,
		tagScore:          &h.Score,
		tagBestMatch:      &h.BestMatch,
		tagDocumentLength: &h.Length,
		tagLines:          &h.Lines,
		tagSource:         &h.Source,
		tagDate:           &h.Date,
		tagHeadline:       &h.Headline,
		tagOriginCity:     &h.OriginCity,
		tagTypeBlock: func(f field) error {
			return (&decoder{b: f.val, base: f.valAt}).decode(fieldSet{tagType: func(t field) error {
				h.Types = append(h.Types, string(t.val))
				return nil
			}})
		},
	})
	if err != nil {
		return h, err
	}
	if h.DocID == nil {
		return h, &DecodeError{Offset: off, Msg: "document header without a DocID"}
	}
	return h, nil
}

// parseText decodes a document text group; off is its offset in the
// message.
func parseText(b []byte, off int) (Text, error) {
	var t Text
	err := (&decoder{b: b, base: off}).decode(fieldSet{
		tagDocumentID:    &t.DocID,
		tagVersionNumber: &t.Version,
		tagDocumentText:  &t.Text,
	})
	return t, err
}
