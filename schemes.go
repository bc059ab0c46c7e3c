package urlkit

import "github.com/urlkit/urlkit/internal/registry"

// The schemes the parser knows are the rows of internal/registry, the
// one table every package reads; the root keeps no table of its own.
// A row's Production selects the scheme-specific production of RFC 1738
// section 5 that (*parser).schemeGrammar applies (grammar.go).

// lookupScheme finds a scheme's row case-insensitively without
// allocating.
func lookupScheme(name string) *registry.Scheme { return registry.Lookup(name) }

// DefaultPort returns the default port of a scheme (case-insensitive), or
// 0 when the scheme has none or is unknown: ftp 21, http 80, gopher 70,
// nntp 119, telnet 23, wais 210, prospero 1525, https 443, rlogin 513,
// tn3270 23, z39.50r and z39.50s 210; and the schemes of today the
// registry lists apart (ws 80, wss 443, imap 143, ldap 389, ...).
func DefaultPort(scheme string) int { return registry.DefaultPort(scheme) }
