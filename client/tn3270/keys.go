package tn3270

import (
	"fmt"
	"strconv"
	"strings"
)

// KeyKind says what a Key does.
type KeyKind int

// Kinds of keys in a key script.
const (
	KeyText     KeyKind = iota // type Text at the cursor
	KeyAID                     // press an attention key: the screen goes to the host
	KeyTab                     // cursor to the next unprotected field
	KeyHome                    // cursor to the first unprotected field
	KeyEraseEOF                // erase from the cursor to the end of the field
)

// Key is one step of a key script.
type Key struct {
	Kind KeyKind
	Text string // KeyText
	AID  AID    // KeyAID
}

// String gives the key in ParseKeys' syntax.
func (k Key) String() string {
	switch k.Kind {
	case KeyText:
		return strings.ReplaceAll(k.Text, "<", "<<")
	case KeyTab:
		return "<tab>"
	case KeyHome:
		return "<home>"
	case KeyEraseEOF:
		return "<eraseeof>"
	}
	for name, a := range namedAIDs {
		if a == k.AID {
			return "<" + name + ">"
		}
	}
	for i, a := range pfAIDs {
		if a == k.AID {
			return fmt.Sprintf("<pf%d>", i+1)
		}
	}
	return fmt.Sprintf("<aid 0x%02X>", byte(k.AID))
}

var namedAIDs = map[string]AID{"enter": AIDEnter, "clear": AIDClear, "pa1": AIDPA1, "pa2": AIDPA2, "pa3": AIDPA3}

// ParseKeys parses a key script: text is typed as is, and names in angle
// brackets (case-insensitive) are keys: <enter>, <clear>, <pa1>-<pa3>,
// <pf1>-<pf24>, <tab>, <home>, <eraseeof>; "<<" is a literal "<".
//
//	logon applid(tso)<enter>
//	<tab>secret<enter><pf3>
func ParseKeys(script string) ([]Key, error) {
	var keys []Key
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			keys = append(keys, Key{Kind: KeyText, Text: text.String()})
			text.Reset()
		}
	}
	for i := 0; i < len(script); {
		c := script[i]
		switch {
		case c == '<' && strings.HasPrefix(script[i:], "<<"):
			text.WriteByte('<')
			i += 2
		case c == '<':
			end := strings.IndexByte(script[i:], '>')
			if end < 0 {
				return nil, fmt.Errorf("tn3270: keys: '<' at offset %d has no closing '>' (write << for a literal <)", i)
			}
			name := strings.ToLower(script[i+1 : i+end])
			k, err := namedKey(name)
			if err != nil {
				return nil, fmt.Errorf("tn3270: keys: offset %d: %w", i, err)
			}
			flush()
			keys = append(keys, k)
			i += end + 1
		case c < 0x20 || c == 0x7f:
			return nil, fmt.Errorf("tn3270: keys: control byte 0x%02x at offset %d (use <enter>, <tab>...)", c, i)
		default:
			text.WriteByte(c)
			i++
		}
	}
	flush()
	return keys, nil
}

func namedKey(name string) (Key, error) {
	switch name {
	case "tab":
		return Key{Kind: KeyTab}, nil
	case "home":
		return Key{Kind: KeyHome}, nil
	case "eraseeof":
		return Key{Kind: KeyEraseEOF}, nil
	}
	if a, ok := namedAIDs[name]; ok {
		return Key{Kind: KeyAID, AID: a}, nil
	}
	if n, ok := strings.CutPrefix(name, "pf"); ok {
		if v, err := strconv.Atoi(n); err == nil {
			a, err := PF(v)
			return Key{Kind: KeyAID, AID: a}, err
		}
	}
	return Key{}, fmt.Errorf("unknown key <%s> (enter, clear, pa1-pa3, pf1-pf24, tab, home, eraseeof)", name)
}

// Press applies a key that stays local (text, tab, home, erase EOF) to
// the screen. AID keys are sent with Conn.SendAID instead.
func (s *Screen) Press(k Key) error {
	switch k.Kind {
	case KeyText:
		return s.Type(k.Text)
	case KeyTab:
		s.Tab()
	case KeyHome:
		s.Cursor = s.nextUnprotected(s.size() - 1)
	case KeyEraseEOF:
		fa := s.fieldAt(s.Cursor)
		if s.Cells[s.Cursor].Field || (fa >= 0 && s.Cells[fa].Attr&AttrProtected != 0) {
			row, col := s.RowCol(s.Cursor)
			return &ProtectedFieldError{row, col}
		}
		for a := s.Cursor; !s.Cells[a].Field; a = s.next(a) {
			s.Cells[a] = Cell{}
			if s.next(a) == s.Cursor {
				break
			}
		}
		if fa >= 0 {
			s.Cells[fa].Attr |= AttrMDT
		}
	default:
		return fmt.Errorf("tn3270: %v is an attention key: send it with Conn.SendAID", k)
	}
	return nil
}
