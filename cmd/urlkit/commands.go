package main

// commandList is every command of the CLI, in the order of CLI.md.
func commandList() []*command {
	return []*command{
		parseCmd,
		checkCmd,
		resolveCmd,
		relativeCmd,
		normalizeCmd,
		equalCmd,
		escapeCmd,
		unescapeCmd,
		extractCmd,
		explainCmd,
		getCmd,
		sendCmd,
		editCmd,
		serveCmd,
	}
}
