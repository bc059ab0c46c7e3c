package urlkit

// schemeGrammar applies the scheme-specific production of RFC 1738
// section 5 selected by sch.grammar, after the generic rules passed.
func (p *parser) schemeGrammar(u *URL, sch *schemeSyntax) {
	switch sch.grammar {
	case grammarGeneric:
	}
}
