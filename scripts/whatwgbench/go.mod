module github.com/urlkit/urlkit/scripts/whatwgbench

go 1.26.0

require (
	github.com/nlnwa/whatwg-url v0.6.2
	github.com/urlkit/urlkit v0.0.0
	golang.org/x/sys v0.49.0
)

require (
	github.com/bits-and-blooms/bitset v1.20.0 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

replace github.com/urlkit/urlkit => ../..
