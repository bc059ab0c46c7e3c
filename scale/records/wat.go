package records

import (
	"encoding/json"
	"errors"
)

// WATLinks is what a WAT metadata record says about one page: its URL,
// its <base href> if any, and the URLs of its links (as written, to be
// resolved against Base, or TargetURI without one).
type WATLinks struct {
	TargetURI string
	Base      string
	Links     []string
}

// watEnvelope is the part of a WAT record's JSON the pipelines read, as
// cc-pyspark's wat_extract_links reads it: the links of the HTML
// metadata (a, img, form, ... "Links") and of its head ("Head.Link"), and
// the head's base URL.
type watEnvelope struct {
	Envelope struct {
		Header struct {
			TargetURI string `json:"WARC-Target-URI"`
		} `json:"WARC-Header-Metadata"`
		Payload struct {
			HTTP struct {
				HTML struct {
					Head struct {
						Base string    `json:"Base"`
						Link []watLink `json:"Link"`
					} `json:"Head"`
					Links []watLink `json:"Links"`
				} `json:"HTML-Metadata"`
			} `json:"HTTP-Response-Metadata"`
		} `json:"Payload-Metadata"`
	} `json:"Envelope"`
}

type watLink struct {
	URL string `json:"url"`
}

var errWATJSON = errors.New("WAT record whose block is not JSON")

// ParseWAT reads the JSON block of a WAT metadata record. A record of
// another page type (no HTML metadata) has no links.
func ParseWAT(block []byte) (WATLinks, error) {
	var e watEnvelope
	if err := json.Unmarshal(block, &e); err != nil {
		return WATLinks{}, errWATJSON
	}
	env := &e.Envelope
	html := &env.Payload.HTTP.HTML
	w := WATLinks{TargetURI: env.Header.TargetURI, Base: html.Head.Base}
	for _, l := range html.Head.Link {
		if l.URL != "" {
			w.Links = append(w.Links, l.URL)
		}
	}
	for _, l := range html.Links {
		if l.URL != "" {
			w.Links = append(w.Links, l.URL)
		}
	}
	return w, nil
}
