package wais

import "fmt"

// DocIDField is one field of a DocID. A DocID is opaque to a client, which
// must send it back exactly as the server returned it; but it is built of
// tagged fields (Kahle, "Document Identifiers", 1991: 1 original server,
// 2 original database, 3 original local id, 4 distributor server,
// 5 distributor database, 6 distributor local id, 7 copyright
// disposition), which older WAIS URLs spelled out one by one.
type DocIDField struct {
	Type  uint64
	Value []byte
}

// ParseDocID splits a DocID into its fields. It fails on a DocID that is
// not a sequence of tagged fields.
func ParseDocID(id []byte) ([]DocIDField, error) {
	var fs []DocIDField
	d := &decoder{b: id}
	for !d.done() {
		start := d.off
		t, err := d.compressed("DocID field type")
		if err != nil {
			return nil, err
		}
		n, err := d.compressed("DocID field length")
		if err != nil {
			return nil, err
		}
		if n > uint64(len(id)-d.off) {
			return nil, &DecodeError{Offset: start, Msg: fmt.Sprintf("DocID field %d: length %d exceeds the %d bytes left", t, n, len(id)-d.off)}
		}
		fs = append(fs, DocIDField{Type: t, Value: id[d.off : d.off+int(n)]})
		d.off += int(n)
	}
	return fs, nil
}

// AppendDocID appends the DocID made of fields to b.
func AppendDocID(b []byte, fields []DocIDField) []byte {
	for _, f := range fields {
		b = appendField(b, f.Type, f.Value)
	}
	return b
}
