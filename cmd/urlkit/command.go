package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/urlkit/urlkit/internal/safetext"
)

// A command is one verb of the CLI. setup declares the flags on fs and
// returns the function that runs the command with the positional
// arguments; help calls setup too, so the flags it prints are the ones
// the command parses.
type command struct {
	name string
	// args is the synopsis after the name; with flagSynopsis, only its
	// positional part, after the flags that usage lists from the FlagSet.
	args         string
	flagSynopsis bool
	// exit, when set, is the command's own exit status text in its help,
	// in place of the generic one.
	exit    string
	summary string // one line for the command list
	detail  string // what it does, with examples
	setup   func(fs *flag.FlagSet) func(ctx context.Context, st *Streams, args []string) int
	// rewriteArgs, if set, rewrites the arguments before the flags are
	// parsed (edit splits trurl's attached "-sVALUE" forms).
	rewriteArgs func(args []string) []string
	// ownOutput: the command reports its own errors writing standard
	// output (get: per URL, and standard output's *os.File is a
	// session's terminal); run does it for the others, and for the
	// command's help.
	ownOutput bool
}

// commands is the table of every command, filled by the cmd_*.go files'
// init-free registration in commandList.
var commands = map[string]*command{}

func register(cmds ...*command) {
	for _, c := range cmds {
		commands[c.name] = c
	}
}

func init() {
	register(commandList()...)
}

// run executes one command line and returns the exit status. An error
// writing standard output (a full disk, /dev/full) ends the command, is
// reported once, and makes the status exitWrite, as for get.
func run(ctx context.Context, args []string, st *Streams) int {
	if len(args) == 0 {
		usage(st.Err)
		return exitUsage
	}
	st = st.guarded(args)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := &outWriter{w: st.Out, stop: cancel}
	st.Out = out
	code := runCommand(ctx, args, st)
	if err := out.failed(); err != nil {
		fmt.Fprintf(st.Err, "urlkit: writing standard output: %s\n", safetext.Visible(unwrapPath(err).Error()))
		return exitWrite
	}
	return code
}

// outWriter is standard output for run: it keeps the first write error,
// fails every later write with it, and then cancels the command's
// context, so that a streaming command stops reading its input.
type outWriter struct {
	w    io.Writer
	stop context.CancelFunc
	mu   sync.Mutex
	err  error
}

func (o *outWriter) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	if err != nil {
		o.err = err
		o.stop()
	}
	return n, err
}

func (o *outWriter) failed() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// runCommand is run after the streams are set up.
func runCommand(ctx context.Context, args []string, st *Streams) int {
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		return help(st, rest)
	case "--version", "-version", "version":
		printVersion(st.Out)
		return exitOK
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(st.Err, "urlkit: unknown command %q; run 'urlkit help' for the list\n", clip(name))
		return exitUsage
	}
	fs := flag.NewFlagSet("urlkit "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	runner := c.setup(fs)
	if c.rewriteArgs != nil {
		rest = c.rewriteArgs(rest)
	} else {
		rest = joinedShortFlags(fs, rest)
	}
	pos, err := parseInterspersed(fs, rest)
	if errors.Is(err, flag.ErrHelp) {
		printCommandHelp(st.Out, c)
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(st.Err, "urlkit %s: %s\nusage: urlkit %s %s\nrun 'urlkit %s -h' for help\n", c.name, safetext.Visible(clip(err.Error())), c.name, c.shortSynopsis(), c.name)
		return exitUsage
	}
	if ow, ok := st.Out.(*outWriter); ok && c.ownOutput {
		// Its help went through run's writer; its data goes to standard
		// output itself.
		own := *st
		own.Out = ow.w
		st = &own
	}
	return runner(ctx, st, pos)
}

// joinedShortFlags splits the one-letter flags written together, as curl
// and getopt take them: "-qO" is "-q -O", and "-ofile" is "-o file" when
// -o takes a value. An argument is split only when each of its letters
// before the last is a boolean flag of fs; anything else is left for the
// flag package to read or refuse. Flag values and what follows "--" are
// not touched.
func joinedShortFlags(fs *flag.FlagSet, args []string) []string {
	isBool := func(f *flag.Flag) bool {
		b, ok := f.Value.(interface{ IsBoolFlag() bool })
		return ok && b.IsBoolFlag()
	}
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if !strings.HasPrefix(a, "-") || a == "-" || strings.Contains(a, "=") {
			out = append(out, a)
			continue
		}
		if strings.HasPrefix(a, "--") || len(a) == 2 || fs.Lookup(a[1:]) != nil {
			// A flag written alone ("-json" is Go's spelling of --json,
			// not -j son): its value, if it takes one, is the next
			// argument, which is no flag to split.
			if f := fs.Lookup(strings.TrimLeft(a, "-")); f != nil && !isBool(f) && i+1 < len(args) {
				out = append(out, a, args[i+1])
				i++
				continue
			}
			out = append(out, a)
			continue
		}
		var split []string
		valueNext := false
		for k := 1; k < len(a); k++ {
			f := fs.Lookup(a[k : k+1])
			if f == nil {
				split = nil
				break
			}
			split = append(split, "-"+a[k:k+1])
			if !isBool(f) {
				if k+1 < len(a) {
					split = append(split, a[k+1:])
				} else {
					valueNext = true
				}
				break
			}
		}
		if split == nil {
			out = append(out, a)
			continue
		}
		out = append(out, split...)
		if valueNext && i+1 < len(args) {
			out = append(out, args[i+1])
			i++
		}
	}
	return out
}

// parseInterspersed parses flags anywhere among the arguments (urlkit
// parse URL --json), up to a "--" after which everything is positional.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// flag stops at "--" (consumed) or at the first non-flag.
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func usage(w io.Writer) {
	fmt.Fprint(w, "usage: urlkit COMMAND [FLAGS] ARGS...\n       urlkit --version\n\nCommands:\n")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprint(w, "\nRun 'urlkit help COMMAND' or 'urlkit COMMAND -h' for a command's flags and examples.\n")
	fmt.Fprint(w, "Commands that take URLs read them one per line from standard input when none is given\n(edit when given -f -, as trurl does), skipping blank lines (normalize and equal print\nan empty line in their place, resolve reads one as the empty reference, escape and\nunescape as the empty string).\n\n")
	fmt.Fprintln(w, exitHelp)
}

func help(st *Streams, args []string) int {
	if len(args) == 0 {
		usage(st.Out)
		return exitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(st.Err, "urlkit help: unknown command %q\n", args[0])
		return exitUsage
	}
	printCommandHelp(st.Out, c)
	return exitOK
}

func printCommandHelp(w io.Writer, c *command) {
	fmt.Fprintf(w, "usage: urlkit %s %s\n\n%s\n", c.name, c.synopsis(), strings.TrimSpace(c.detail))
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	c.setup(fs)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprint(w, "\nFlags:\n")
		fs.SetOutput(w)
		fs.VisitAll(func(f *flag.Flag) {
			name, usage := flag.UnquoteUsage(f)
			if name != "" {
				name = " " + name
			}
			dash := "--"
			if len(f.Name) == 1 {
				dash = "-"
			}
			fmt.Fprintf(w, "  %s%s%s\n    \t%s", dash, f.Name, name, usage)
			if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "0s" {
				fmt.Fprintf(w, " (default %s)", f.DefValue)
			}
			fmt.Fprintln(w)
		})
	}
	exit := exitHelp
	if c.exit != "" {
		exit = c.exit
	}
	fmt.Fprintf(w, "\n%s\n", exit)
}

// shortSynopsis is the synopsis for a usage error: one line, with
// "[FLAGS]" for a list of flags too long for one (get's has 40), which
// the help lists.
func (c *command) shortSynopsis() string {
	s := c.synopsis()
	if c.flagSynopsis && len("usage: urlkit "+c.name+" "+s) > 80 {
		return strings.TrimSpace("[FLAGS] " + c.args)
	}
	return s
}

// synopsis returns what follows the command's name in its usage line:
// with flagSynopsis, every flag the command declares ("[-o FILE]
// [--render]"), in the FlagSet's order, then args.
func (c *command) synopsis() string {
	if !c.flagSynopsis {
		return c.args
	}
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	c.setup(fs)
	var parts []string
	fs.VisitAll(func(f *flag.Flag) {
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		name, _ := flag.UnquoteUsage(f)
		if name != "" {
			name = " " + name
		}
		parts = append(parts, "["+dash+f.Name+name+"]")
	})
	return strings.TrimSpace(strings.Join(parts, " ") + " " + c.args)
}
