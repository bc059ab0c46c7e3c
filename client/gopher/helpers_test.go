package gopher

import (
	"strings"

	"github.com/urlkit/urlkit/internal/wire"
)

func lineReader(s string) *wire.LineReader {
	return wire.NewLineReader(strings.NewReader(s), DefaultMaxLine)
}
