// Package extract finds URLs in plain text: mail, news, documentation,
// logs. It follows the appendix of RFC 1738 ("Recommendations for URLs in
// Context") and the section "Wrappers for URIs in plain text" of
// draft-ietf-uri-url-03, and finds bare URLs in running text as well.
//
// A Scanner reads an io.Reader in bounded memory and returns one Item per
// URL; FindAll does the same for a string. Every candidate is confirmed by
// urlkit.ParseMode in the Lenient mode, so that what extract reports is
// exactly what the lenient parser accepts, in the canonical form it
// returns, with its repairs listed.
//
// # What is found
//
// Wrapped URLs: "<URL:...>" and "<...>". Everything between the brackets
// is the URL, fragment included, with every whitespace character removed
// (spaces, tabs, line breaks and the indentation of the next line: "The
// whitespace should be ignored when extracting the URL"). RFC 1738's
// example
//
//	<URL:ftp://info.cern.ch/pub/www/doc;
//	type=d>
//
// gives ftp://info.cern.ch/pub/www/doc;type=d. Unicode spaces (the
// no-break spaces of text that went through HTML) count as whitespace. In
// a quoted message, when the wrapper's line starts with quotation marks
// ("> ", "> > "), the same marks at the start of its continuation lines
// belong to the line break, not to the URL nor to the closing ">". Each
// removal is listed in Item.Repairs. A "<...>" without the
// "URL:" prefix counts as a wrapper only when its content starts like a
// URL in running text (below), so that "<timbl@info.cern.ch>" and "<p>"
// are not taken for URLs; after "<URL:" any scheme counts. A wrapper ends
// at the first ">"; one that meets another "<", a blank line, or no ">"
// within Config.MaxLength bytes is reported as a Problem (ErrUnclosed)
// and not buffered further; the text after its "<" is then scanned as
// running text.
//
// Prefixed URLs: "URL:" directly followed by "scheme:", outside brackets
// (draft-ietf-uri-url-03's prefixedurl). Any scheme counts after the
// prefix; the URL ends as a bare URL does.
//
// Bare URLs in running text: a scheme name, ":" and a scheme-specific
// part, where the scheme is
//   - one of the specifications' schemes (ftp, http, https, gopher, nntp,
//     telnet, wais, file, prospero, rlogin, tn3270, afs, nfs, z39.50r,
//     z39.50s), followed by "//";
//   - one of the schemes without "//" (mailto, news, mid, cid, urn,
//     mailserver, and the experimental "x-" schemes), as in
//     "news:comp.infosystems.www" and "mailto:timbl@info.cern.ch";
//   - or any other scheme name of two characters or more, without ".",
//     followed by "//" and an authority ("svn+ssh://host/",
//     "cvs://:pserver:anoncvs@host:/cvs").
//
// A scheme starts at a word boundary; in a run such as "e.g.http://h" the
// scheme is the part after a "." (or "+", "-") that qualifies. A bare URL
// ends at whitespace, a control character, '"', '<', '>' or '`', at a
// non-ASCII character that is not a letter, mark or digit (quotation
// marks, ideographic punctuation, no-break space), at a ")", "]" or "}"
// that closes nothing opened inside the URL, and, when it follows a "'",
// at the next "'". Then sentence punctuation is dropped from its end
// (". , : ; ! ? ' *"): "(see http://h/a_(b))." gives http://h/a_(b), and
// the Markdown "[![b](http://h/b.svg)](http://h/)" two URLs.
// A bare URL never spans lines. Raw non-ASCII letters stay in the URL and
// are encoded by the lenient parser (an internationalized host name
// becomes its IDNA A-label).
//
// # The hyphen rule
//
// RFC 1738: "the interpreter of a URL containing a line break immediately
// after a hyphen should ignore all unencoded whitespace around the line
// break, and should be aware that the hyphen may or may not actually be
// part of the URL." Inside a wrapper, extract keeps the hyphen: Item.URL
// is the text with the whitespace removed and the hyphen in place, and
// Item.Alternative is the same URL with every such hyphen removed (when
// that parses and differs). Keeping it is the deterministic choice
// because the appendix's general rule (whitespace is ignored) gives it,
// because it is what urlkit.ParseMode in the Lenient mode returns for the
// same wrapper, so extraction and validation agree, and because the
// appendix asks writers not to break lines after a hyphen, calling a
// hyphen that a typesetter inserts erroneous: software that wraps text breaks after the hyphens
// that are there and inserts none. When only the reading without the
// hyphens parses, that reading is the URL and Alternative is "". A "-"
// followed by blanks and then the line break counts; the break may be
// CRLF. Outside wrappers a line break ends a URL, so the rule does not
// arise.
//
// # Positions
//
// Offsets count bytes from 0. Item.Offset is the URL's first byte in the
// input (after "<", "URL:" and any whitespace), Item.Start and Item.End
// the whole match. Lines are counted at "\n", so CRLF and LF text give
// the same line numbers; columns count bytes from 1, a "\r" belonging to
// the line it ends. The results do not depend on how the reader splits
// the input.
package extract
