module github.com/urlkit/urlkit

go 1.26.0

require (
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/net v0.62.0
	golang.org/x/sys v0.49.0
	golang.org/x/term v0.47.0
	golang.org/x/text v0.43.0
	mvdan.cc/xurls/v2 v2.6.0
)

require golang.org/x/tools v0.51.0 // indirect
