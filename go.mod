module github.com/urlkit/urlkit

go 1.26.0

require (
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
