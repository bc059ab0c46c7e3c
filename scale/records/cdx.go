package records

import (
	"bytes"
	"encoding/json"
	"errors"
)

// CDXReader reads the original URL of each line of a CDX index, in
// either form: "SURTKEY TIMESTAMP {json}" (CDXJ, Common Crawl's index),
// whose JSON object has a "url", or the classic space-separated form,
// whose " CDX N b a m s k ..." header line names the fields ("a" is the
// original URL; the third field when there is no header).
type CDXReader struct {
	field int // index of the classic form's "a" field
	ready bool
}

var (
	errCDXFields = errors.New("CDX line with too few fields")
	errCDXJSON   = errors.New(`CDX line whose JSON has no "url"`)
)

// URL returns the original URL the CDX line records; ok is false for a
// header or a blank line. A line that is neither form is an error.
func (c *CDXReader) URL(line []byte) (url []byte, ok bool, err error) {
	if !c.ready {
		c.field, c.ready = 2, true
	}
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil, false, nil
	}
	if bytes.HasPrefix(line, []byte("CDX ")) {
		// The field letters follow "CDX"; the URL is field "a".
		for i, f := range bytes.Fields(line[4:]) {
			if string(f) == "a" {
				c.field = i
			}
		}
		return nil, false, nil
	}
	// key, timestamp, then the JSON object or the remaining fields.
	rest := line
	var fields [][]byte
	for len(fields) < 2 {
		i := bytes.IndexByte(rest, ' ')
		if i < 0 {
			return nil, false, errCDXFields
		}
		fields = append(fields, rest[:i])
		rest = bytes.TrimLeft(rest[i+1:], " ")
	}
	if len(rest) > 0 && rest[0] == '{' {
		var v struct {
			URL string `json:"url"`
		}
		if err := json.Unmarshal(rest, &v); err != nil || v.URL == "" {
			return nil, false, errCDXJSON
		}
		return []byte(v.URL), true, nil
	}
	all := bytes.Fields(line)
	if c.field >= len(all) {
		return nil, false, errCDXFields
	}
	return all[c.field], true, nil
}
