package gopher

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit/internal/wire"
)

// Gopher+ data lengths (the number after "+" in a response header).
const (
	LengthDot   = -1 // the data ends with a line holding only "."
	LengthClose = -2 // the data ends when the server closes the connection
)

// PlusError is a Gopher+ error response: a header "-N", "--1" or "--2"
// followed by a line "code contact" and a message.
type PlusError struct {
	// Code is the Gopher+ error code: 1 item is not available, 2 try again
	// later, 3 item has moved (Msg then describes the new location); 0
	// if the server sent none.
	Code int
	// Contact is the administrator contact that follows the code.
	Contact string
	// Msg is the rest of the error text, lines joined with "\n".
	Msg string
}

// Error returns "gopher: server error CODE (MEANING): MSG".
func (e *PlusError) Error() string {
	meaning := map[int]string{1: "item is not available", 2: "try again later", 3: "item has moved"}[e.Code]
	if meaning == "" {
		meaning = "unknown code"
	}
	return fmt.Sprintf("gopher: server error %d (%s): %s", e.Code, meaning, e.Msg)
}

// parseHeader parses a Gopher+ response header line: "+N" (N bytes),
// "+-1" (until a "." line), "+-2" (until close), or the error forms "-N",
// "--1", "--2". ok is false for anything else.
func parseHeader(line string) (length int64, isErr, ok bool) {
	line = strings.TrimRight(line, " \t")
	if len(line) < 2 || (line[0] != '+' && line[0] != '-') {
		return 0, false, false
	}
	isErr = line[0] == '-'
	num := line[1:]
	if num[0] == '-' {
		if num != "-1" && num != "-2" {
			return 0, false, false
		}
	} else if num[0] < '0' || num[0] > '9' {
		return 0, false, false // no "+" sign, no spaces
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		return 0, false, false
	}
	return n, isErr, true
}

// parsePlusError builds a PlusError from an error body.
func parsePlusError(body string) *PlusError {
	body = strings.ReplaceAll(body, "\r\n", "\n")
	body = strings.TrimSuffix(strings.TrimRight(body, "\n"), "\n.")
	if body == "." {
		body = ""
	}
	first, rest, _ := strings.Cut(body, "\n")
	e := &PlusError{}
	i := 0
	for i < len(first) && i < 3 && first[i] >= '0' && first[i] <= '9' {
		i++
	}
	if i > 0 && (i == len(first) || first[i] == ' ') {
		e.Code, _ = strconv.Atoi(first[:i])
		e.Contact = strings.TrimSpace(first[i:])
		e.Msg = strings.TrimSpace(rest)
	} else {
		e.Msg = strings.TrimSpace(body)
	}
	return e
}

// ErrMalformedAttributes is returned for an attribute response that does
// not start with a "+NAME:" line or has an empty block name.
var ErrMalformedAttributes = errors.New("gopher: malformed attribute block")

// DefaultMaxLines bounds the number of lines ParseAttributes reads.
const DefaultMaxLines = 10000

// Block is one Gopher+ attribute block, as returned for "!" (one item)
// and "$" (every item of a menu) requests:
//
//	+INFO: 0hello	/hello.txt	127.0.0.1	7070	+
//	+ADMIN:
//	 Admin: Test Admin <admin@example.invalid>
//	 Mod-Date: Sat Nov 21 23:20:33 2026 <20261121232033>
type Block struct {
	// Name is the block name without "+" and ":": "INFO", "ADMIN",
	// "VIEWS", "ABSTRACT", "ASK", ...
	Name string
	// Value is the text after "+NAME:" on the header line, one
	// separating space removed (the item line of an INFO block).
	Value string
	// Lines are the block's following lines, each without its one
	// leading space.
	Lines []string
}

// String formats the block as sent, with CRLF line ends: the header line
// ("+NAME:", then a space and the Value if there is one) and each of
// Lines after one space.
func (b Block) String() string {
	var s strings.Builder
	s.WriteString(b.header())
	s.WriteString("\r\n")
	for _, l := range b.Lines {
		s.WriteString(" " + l + "\r\n")
	}
	return s.String()
}

// header returns the header line of the block, without line end.
func (b Block) header() string {
	if b.Value == "" {
		return "+" + b.Name + ":"
	}
	return "+" + b.Name + ": " + b.Value
}

// Item parses the Value of an INFO block as a menu line.
func (b Block) Item() (Item, error) { return ParseItem(b.Value) }

// Question is one line of an ASK block (Gopher+ section 2.6):
// "Ask: prompt TAB default", "Choose: prompt TAB choice1 TAB choice2", ...
type Question struct {
	Kind     string   // "Ask", "AskP" (password), "AskL" (long text), "AskF" (file), "Select", "Choose", "ChooseF", "Note", ...
	Prompt   string   // text shown to the user
	Defaults []string // default answer, or the choices
}

// Questions parses the Lines of an ASK block.
func (b Block) Questions() []Question {
	qs := make([]Question, 0, len(b.Lines))
	for _, l := range b.Lines {
		kind, rest, _ := strings.Cut(l, ":")
		rest = strings.TrimPrefix(rest, " ")
		fields := strings.Split(rest, "\t")
		q := Question{Kind: strings.TrimSpace(kind), Prompt: fields[0]}
		if len(fields) > 1 {
			q.Defaults = fields[1:]
		}
		qs = append(qs, q)
	}
	return qs
}

// ParseAttributes reads Gopher+ attribute blocks from r until a line
// holding only "." or the end of the input, with lines of at most
// DefaultMaxLine bytes and at most DefaultMaxLines lines. Lines starting
// with "+" open a block; the others belong to the current block (one
// leading space removed). Empty lines before the first block are skipped.
// The limit applies to each line as Block.String writes it back (with the
// space before a block line or a value), so that what parses once always
// parses again.
func ParseAttributes(r io.Reader) ([]Block, error) {
	return parseAttributes(wire.NewLineReader(r, DefaultMaxLine), DefaultMaxLines)
}

func parseAttributes(lr *wire.LineReader, maxLines int) ([]Block, error) {
	maxLine := lr.Max
	if maxLine <= 0 {
		maxLine = wire.DefaultMaxLine
	}
	var blocks []Block
	for n := 0; ; n++ {
		if n >= maxLines {
			return blocks, fmt.Errorf("%w: more than %d lines", ErrMalformedAttributes, maxLines)
		}
		line, err := lr.ReadLine()
		switch {
		case err == nil || (err == io.ErrUnexpectedEOF && line != ""):
		case err == io.EOF:
			return blocks, nil
		default:
			return blocks, fmt.Errorf("gopher: attributes: %w", err)
		}
		if line == "." {
			return blocks, nil
		}
		if strings.HasPrefix(line, "+") {
			name, value, _ := strings.Cut(line[1:], ":")
			if name == "" {
				return blocks, fmt.Errorf("%w: %q", ErrMalformedAttributes, clip(line))
			}
			b := Block{Name: name, Value: strings.TrimPrefix(value, " ")}
			if n := len(b.header()); n > maxLine {
				return blocks, canonicalTooLong(n, maxLine)
			}
			blocks = append(blocks, b)
			continue
		}
		if len(blocks) == 0 {
			if line == "" {
				continue
			}
			return nil, fmt.Errorf("%w: %q before the first block", ErrMalformedAttributes, clip(line))
		}
		b := &blocks[len(blocks)-1]
		content := strings.TrimPrefix(line, " ")
		if n := 1 + len(content); n > maxLine {
			return blocks, canonicalTooLong(n, maxLine)
		}
		b.Lines = append(b.Lines, content)
	}
}

// canonicalTooLong reports a line that fits the limit as sent but not as
// Block.String writes it back: a block line without its leading space, or
// a header without the space after the colon. Accepting it would make a
// parsed block that cannot be parsed again once written out.
func canonicalTooLong(n, max int) error {
	return fmt.Errorf("gopher: attributes: %w (limit %d bytes; the line is %d bytes with the space Gopher+ puts before a block line or value)", ErrLineTooLong, max, n)
}
