// Package request holds the structured requests of the access plans that
// are more than a command and an argument: a plan's Send step (package
// scheme) carries one in Step.Request for the executor of its scheme
// (package fetch), and package fetch's encoders write the WAIS and
// Prospero ones into the step's bytes with the protocol clients' own
// encoders, which the network-free package scheme does not import. They
// are the two packages' shared vocabulary, not part of either's API.
package request

// Gopher is the request of a gopher plan's Send step: the fields of the
// request line, or what the client must ask first.
type Gopher struct {
	Selector string
	// Search is the search field, nil when the line has none.
	Search *string
	// Plus is the Gopher+ field, nil when the line has none.
	Plus *string
	// AskSearch: a search server (type 7) and no words in the URL: the
	// client asks the user and sends them as the search field.
	AskSearch bool
	// AskForm: Gopher+ "?": the client fetches the item's attributes
	// ("!"), asks the questions of its +ASK block, then submits the
	// answers as a form.
	AskForm bool
	// Form holds the values of a filled-in ASK form to submit (a "+"
	// request with a +-1 data block); nil when there is none.
	Form []string
	// Attributes: a "!" or "$" request, answered with attribute blocks.
	Attributes bool
}

// Line returns the request line with its CR LF.
func (r *Gopher) Line() string {
	line := r.Selector
	for _, f := range []*string{r.Search, r.Plus} {
		if f != nil {
			line += "\t" + *f
		}
	}
	return line + "\r\n"
}

// WAISChunkSize is the number of document bytes each retrieval request
// of a wais access plan asks for (client/wais's default chunk).
const WAISChunkSize = 32 << 10

// The Op of the Send steps of a wais plan. Each step's Request is a
// *WAIS; its Text, the whole request message (WAIS header and APDU,
// Step.Binary), is written by package fetch's encoder.
const (
	WAISSearch   = "SEARCH"   // a search of the database for the seed words (query type "3")
	WAISRetrieve = "RETRIEVE" // the first chunk of a document (query type "1")
	// WAISNextChunk is the second chunk of a document, sent once the
	// first came back whole, and the template of every chunk after it:
	// the same request with its range moved on (wais.Conn.OpenRequest).
	WAISNextChunk = "NEXT-CHUNK"
	WAISSource    = "SOURCE" // the search of the INFO database for the database's source record
	// WAISSourceRecord is the retrieval of the source record that search
	// finds, from INFO, type WSRC: its DocID is empty in the plan, and the
	// client fills in the hit's (wais.Conn.SourceRequest).
	WAISSourceRecord = "SOURCE-RECORD"
)

// WAIS is the request of a Send step of a wais plan.
type WAIS struct {
	Database  string
	SeedWords string // a search: the words, exactly as decoded
	// A retrieval: the DocID's bytes (RFC 1738's form), or its fields
	// (Lynx's form) from which the encoder builds them; the document
	// type; the byte range [Start, End); the document's length from the
	// URL, -1 when it gives none.
	DocID       []byte
	DocIDFields []DocIDField
	Type        string
	Start, End  int64
	Length      int64
}

// DocIDField is one field of a WAIS DocID in Lynx's form: its type
// number and its contents, decoded.
type DocIDField struct {
	Number int
	Value  string
}

// The Op of the Send steps of a prospero plan. Each step's Request is a
// *Prospero (Step.Arg is the hsoname); its Text, the whole request
// message, is written by package fetch's encoder.
const (
	ProsperoList     = "LIST"          // list the directory hsoname
	ProsperoContents = "CONTENTS"      // GET-OBJECT-INFO CONTENTS: a file's data
	ProsperoAccess   = "ACCESS-METHOD" // GET-OBJECT-INFO ACCESS-METHOD: where a file's data is
)

// Prospero is the request of a Send step of a prospero plan: the
// operation is the step's Op.
type Prospero struct {
	HSOName string
	// Version is the object version sent after the hsoname; "" for the
	// current one (version 0, left out).
	Version string
}

// Window is a terminal's window size in characters: rlogin's
// window-size message (RFC 1282) in an rlogin plan, the NAWS
// subnegotiation (RFC 1073) in a telnet plan. Its bytes are the client's
// own (rlogin.AppendWindowSize, telnet.AppendNAWS), which also writes the
// sizes of a resize.
type Window struct{ Width, Height int }

// TermType is a telnet plan's answer to TERMINAL-TYPE SEND, the
// subnegotiation IS Name (RFC 1091). Its bytes are the telnet client's
// own (telnet.AppendTermType), which sends the name the plan's bytes
// hold.
type TermType struct{ Name string }
