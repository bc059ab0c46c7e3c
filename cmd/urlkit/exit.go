package main

// Exit statuses, the same for every command (CLI.md): 0 success (valid,
// equal, fetched), 1 the input is invalid, not equal, or the access
// failed, 2 usage error, 130 interrupted.
const (
	exitOK          = 0
	exitFail        = 1
	exitUsage       = 2
	exitInterrupted = 130
)

const exitHelp = `Exit status: 0 success (valid, equal, fetched); 1 an input is invalid,
not equal, or the access failed; 2 usage error; 130 interrupted.`
