package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/safetext"
	"github.com/urlkit/urlkit/scheme"
)

var explainCmd = &command{
	name:    "explain",
	args:    "[--mode M] [--proxy HOST:PORT] [--email ADDR] [--news-server HOST] [--send] [--smtp HOST:PORT] [--show-password] [--compressed] [--login] [-j N] [URL...]",
	summary: "print the access algorithm a URL stands for, without network access",
	detail: `Explain prints, without any network access, what a client does to access
each URL: first "connect HOST:PORT" (or "open PATH" for a local file), then
one "send" line per protocol line the client sends, in Go's quoted form
(send "CWD /etc\r\n"), and "#" comment lines for the reason of a step, a
condition ("# if the server replies 331 (it wants a password):" before the
step it guards), the reply expected ("# expect 220: ..."), what the client
asks the user, how the data ends, and the security concerns of RFC 1738
section 6: a port other than the scheme's default (and what usually
listens there), and any decoded CR, LF, NUL or TAB that would enter a
protocol line.

It prints the same access plan that get carries out (a test compares the
plan with the wire against real servers), so the two cannot disagree. A
URL the access layer refuses (a control character in a protocol line, a
transfer type its clients cannot do) gets a plan that says why and sends
nothing.

The exit status is 1 for an invalid URL, a scheme with no access
algorithm (urn, x-, unknown), and a refused URL (the reason also goes to
standard error). Several URLs are explained one after the other,
separated by an empty line.

--proxy explains the access through an HTTP proxy: the whole URL, of
any retrieval scheme, goes on the request line (RFC 1630). --news-server
names the reader's news server for news: URLs (default $NNTPSERVER, else
"news"); --email the address used as the anonymous FTP password and the
mail sender (default user@example.com).

` + modesHelp + `

Examples:
  urlkit explain 'ftp://myname@host.dom/%2Fetc/motd'
  urlkit explain 'gopher://host/1sel%09%09+application/postscript%20Es_ES'
  urlkit explain --proxy proxy.example:3128 'http://info.cern.ch/a#frag'
  urlkit explain 'ftp://host:25/a%0D%0AHELO'`,
	setup: func(fs *flag.FlagSet) func(context.Context, *Streams, []string) int {
		mode := modeFlag(fs)
		var opts scheme.PlanOptions
		var showPassword bool
		fs.StringVar(&opts.Proxy, "proxy", "", "explain the access through the HTTP proxy at `HOST:PORT`")
		fs.StringVar(&opts.Email, "email", "", "the user's mail `ADDR`ess: anonymous FTP password, mail sender (default user@example.com)")
		fs.StringVar(&opts.NewsServer, "news-server", "", "the news server `HOST` for news: URLs (default $NNTPSERVER, else news)")
		fs.BoolVar(&opts.Post, "send", false, "explain urlkit send: the posting of a news or nntp URL (a mailto URL is always a submission)")
		fs.StringVar(&opts.MailServer, "smtp", "", "the mail server `HOST:PORT` a mailto message is submitted to (urlkit send --smtp)")
		fs.BoolVar(&opts.Compressed, "compressed", false, "explain the HTTP request of get --compressed (it asks for a gzip body)")
		fs.BoolVar(&showPassword, "show-password", false, "show a password of the URL instead of xxxxx")
		fs.BoolVar(&opts.Login, "login", false, "explain the session of get --login (the login and password prompts answered)")
		jobs := jobsFlag(fs, linesJobsUsage)
		return func(ctx context.Context, st *Streams, args []string) int {
			opts.Mode = *mode
			opts.LocalUser = localUser() // rlogin's handshake names the account running urlkit
			if opts.MailServer == "" {
				opts.MailServer = os.Getenv("SMTPSERVER")
			}
			if opts.MailServer != "" && !strings.Contains(opts.MailServer, ":") {
				opts.MailServer += ":25"
			}
			if opts.NewsServer == "" {
				opts.NewsServer = os.Getenv("NNTPSERVER")
			}
			if opts.Proxy != "" {
				p, err := proxyAddr(opts.Proxy)
				if err != nil {
					fmt.Fprintf(st.Err, "urlkit explain: --proxy: %v\n", err)
					return exitUsage
				}
				opts.Proxy = p
			}
			out := bufio.NewWriter(st.Out)
			defer out.Flush()
			return eachInputJobs(ctx, st, out, args, *jobs, false, func() lineJob {
				return func(n int, s string, out *bufio.Writer, errw io.Writer) int {
					if n > 0 {
						out.WriteByte('\n')
					}
					return explainOne(st, out, errw, s, opts, showPassword)
				}
			})
		}
	},
}

// explainOne writes the plan of s to out, its warnings and errors to errw.
func explainOne(st *Streams, out *bufio.Writer, errw io.Writer, s string, opts scheme.PlanOptions, showPassword bool) int {
	u, warns, err := parseAbs(s, opts.Mode)
	if err != nil {
		out.Flush()
		printErr(errw, err)
		return exitFail
	}
	printWarnings(st, out, errw, s, warns)
	plan, err := scheme.PlanURL(&u, opts)
	if err != nil {
		out.Flush()
		printErr(errw, err)
		return exitFail
	}
	for _, line := range plan.Lines(showPassword) {
		// One line per step, whatever bytes the URL decoded to.
		out.WriteString(safetext.Visible(line))
		out.WriteByte('\n')
	}
	if len(plan.Refused) > 0 {
		// The first refusal, as get reports it (fetch.CheckURL).
		c := plan.Refused[0]
		out.Flush()
		printErr(errw, &urlkit.Error{Op: "access", Input: u.Redacted(), Offset: c.Offset, Rule: c.Message})
		return exitFail
	}
	return exitOK
}

// proxyAddr returns the HOST:PORT of a proxy given as HOST[:PORT] or as
// an http URL; the port defaults to 80.
func proxyAddr(p string) (string, error) {
	if strings.Contains(p, "://") {
		u, _, err := urlkit.ParseMode(p, urlkit.RFC3986)
		if err != nil {
			return "", err
		}
		if u.Host == "" {
			return "", errors.New("the proxy URL has no host")
		}
		p = u.Host
		if u.HasPort {
			p += ":" + u.Port
		}
	}
	if _, _, err := net.SplitHostPort(p); err != nil {
		if strings.Count(p, ":") > 1 && !strings.HasPrefix(p, "[") {
			return "", fmt.Errorf("%q: write an IPv6 address in brackets", p)
		}
		p = net.JoinHostPort(strings.Trim(p, "[]"), "80")
		if _, _, err := net.SplitHostPort(p); err != nil {
			return "", err
		}
	}
	return p, nil
}
