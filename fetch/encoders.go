package fetch

import (
	"fmt"
	"math"
	"strings"

	"github.com/urlkit/urlkit/client/prospero"
	"github.com/urlkit/urlkit/client/rlogin"
	"github.com/urlkit/urlkit/client/telnet"
	"github.com/urlkit/urlkit/client/wais"
	"github.com/urlkit/urlkit/internal/request"
	"github.com/urlkit/urlkit/scheme"
)

// The wais and prospero plans, and the sessions' window sizes and
// terminal types, describe their requests (package scheme is
// network-free and does not import the clients); these encoders write the
// exact bytes with the clients' own encoders, so that explain prints, and
// the openers send, what the clients put on the wire.
func init() {
	scheme.RegisterEncoder("wais", encodeWAIS)
	scheme.RegisterEncoder("prospero", encodeProspero)
	scheme.RegisterEncoder("rlogin", encodeRlogin)
	scheme.RegisterEncoder("telnet", encodeTelnet)
	scheme.RegisterEncoder("tn3270", encodeTelnet)
}

// encodeTelnet writes a telnet or tn3270 plan's subnegotiations with the
// telnet client's writers, the ones its answers and a later window size
// go out with: TERMINAL-TYPE IS (RFC 1091) and NAWS (RFC 1073, sizes
// capped at 16 bits as the client caps them).
func encodeTelnet(st *scheme.Step) error {
	switch r := st.Request.(type) {
	case *request.TermType:
		st.Text = string(telnet.AppendTermType(nil, r.Name))
	case *request.Window:
		st.Text = string(telnet.AppendNAWS(nil, r.Width, r.Height))
	default:
		return fmt.Errorf("a telnet step holds %T", st.Request)
	}
	return nil
}

// encodeRlogin writes rlogin's window-size message with the client's
// writer, the one that sends it (and the sizes of a later resize).
func encodeRlogin(st *scheme.Step) error {
	r, ok := st.Request.(*request.Window)
	if !ok {
		return fmt.Errorf("an rlogin step holds %T", st.Request)
	}
	st.Text = string(rlogin.AppendWindowSize(nil, r.Width, r.Height))
	return nil
}

func encodeWAIS(st *scheme.Step) error {
	r, ok := st.Request.(*request.WAIS)
	if !ok {
		return fmt.Errorf("a wais step holds %T", st.Request)
	}
	var msg []byte
	var err error
	switch st.Op {
	case request.WAISSearch, request.WAISSource:
		msg, err = (&wais.SearchRequest{Database: r.Database, SeedWords: r.SeedWords}).Marshal()
	case request.WAISRetrieve, request.WAISNextChunk, request.WAISSourceRecord:
		docID := r.DocID
		if r.DocIDFields != nil {
			fs := make([]wais.DocIDField, len(r.DocIDFields))
			for i, f := range r.DocIDFields {
				if f.Number < 0 || uint64(f.Number) > math.MaxUint32 {
					return fmt.Errorf("DocID field type %d: a type is a 32-bit number (Z39.50-1988 4.1.3)", f.Number)
				}
				fs[i] = wais.DocIDField{Type: uint64(f.Number), Value: []byte(f.Value)}
			}
			docID = wais.AppendDocID(nil, fs)
		}
		msg, err = (&wais.TextRequest{Database: r.Database, DocID: docID, Type: r.Type, Start: r.Start, End: r.End}).Marshal()
	default:
		return fmt.Errorf("unknown wais operation %q", st.Op)
	}
	if err != nil {
		return err
	}
	st.Text = string(msg)
	return nil
}

func encodeProspero(st *scheme.Step) error {
	r, ok := st.Request.(*request.Prospero)
	if !ok {
		return fmt.Errorf("a prospero step holds %T", st.Request)
	}
	var c prospero.Client
	var msg []byte
	var err error
	switch st.Op {
	case request.ProsperoList:
		msg, err = c.ListRequest(r.HSOName, nil, []string{})
	case request.ProsperoContents, request.ProsperoAccess:
		msg, err = c.ObjectInfoRequest(r.HSOName, st.Op)
	default:
		return fmt.Errorf("unknown prospero operation %q", st.Op)
	}
	if err != nil {
		return err
	}
	st.Text = string(withVersion(msg, r.HSOName, r.Version))
	return nil
}

// withVersion writes the object version after the quoted hsoname of the
// request's DIRECTORY or GET-OBJECT-INFO line (Prospero protocol version
// 5: both take an object-version); "" leaves the request as it is.
func withVersion(req []byte, hsoname, version string) []byte {
	if version == "" {
		return req
	}
	q := " " + prospero.Quote(hsoname) + "\n"
	s := string(req)
	i := strings.LastIndex(s, q)
	if i < 0 {
		return req
	}
	return []byte(s[:i] + q[:len(q)-1] + " " + version + "\n" + s[i+len(q):])
}
