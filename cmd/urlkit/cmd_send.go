package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/urlkit/urlkit/fetch"
	"github.com/urlkit/urlkit/internal/safetext"
)

var sendCmd = &command{
	name:         "send",
	args:         "URL",
	flagSynopsis: true,
	summary:      "send the message on standard input to a mailto: address or post it to a newsgroup",
	detail: `Send reads a message from standard input and sends it where the URL says,
carrying out the URL's submission or posting plan (the one explain prints
with the same options).

  mailto:  RFC 1738 3.5, and RFC 6068 in the rfc3986 and lenient modes
           (several addresses, ?subject=, ?cc=, ?body=, other hfields).
           Standard input is the body, or a whole message when it starts
           with header fields. To comes from the URL, From from --from or
           $EMAIL, Date and Message-ID are added when absent. Submitted to
           --smtp HOST[:PORT] (port 25 by default), else $SMTPSERVER; no
           host is guessed. --smtp-tls asks for STARTTLS (and fails when
           the server does not offer it).
  news:GROUP, nntp://HOST[:PORT]/GROUP
           posts the article on standard input (POST): Newsgroups from the
           URL (an article whose own Newsgroups names other groups is
           refused), Message-ID and Date added when absent. news: URLs use the
           server of --nntp or $NNTPSERVER. --user USER[:PASSWORD] (or the
           nntp URL's user and password) logs in with AUTHINFO.

Before connecting, the header is checked (RFC 5322, RFC 5536 for news),
every address is checked as an RFC 5321 path, and a CR, LF or NUL decoded
from an address, group or header field of the URL is refused
(mailto:a@b?subject=x%0D%0ABcc:c cannot add a field). Passwords never
appear in messages or traces. On success the server's acceptance is
printed on standard error. A whole message's own To, Cc and Bcc fields
choose no recipient (the URL does), and send says so. The exit status is
get's (urlkit get -h): 3 a URL refused, 7 no connection, 28 a timeout,
63 a message larger than the server takes (its SIZE) or than urlkit
sends (32 MiB), 67 a login refused, 1 otherwise.

Examples:
  echo 'Hello.' | urlkit send --smtp mail.example.org --from me@example.org 'mailto:you@example.org?subject=hi'
  urlkit send --nntp news.example.org news:local.test < article.txt`,
	setup: func(fs *flag.FlagSet) func(context.Context, *Streams, []string) int {
		var news newsOptions
		newsFlags(fs, &news, "log in to the news server as `USER[:PASSWORD]` (AUTHINFO)")
		smtpServer := fs.String("smtp", "", "submit mail to `HOST[:PORT]` (default $SMTPSERVER)")
		smtpTLS := fs.Bool("smtp-tls", false, "use STARTTLS with the SMTP server (fail if it is not offered)")
		from := fs.String("from", "", "the sender `ADDRESS` (default $EMAIL)")
		trace := fs.Bool("trace", false, "print the protocol exchange on standard error (passwords masked)")
		timeout := new(time.Duration)
		durationVar(fs, timeout, "timeout", fetch.DefaultTimeout, "give up when nothing arrives for `D` (0: never)")
		mode := modeFlag(fs)
		return func(ctx context.Context, st *Streams, args []string) int {
			if len(args) != 1 {
				fmt.Fprintf(st.Err, "urlkit send: takes one URL, got %d\n", len(args))
				return exitUsage
			}
			u, err := fetch.ParseURL(args[0], *mode)
			if err != nil {
				printErr(st.Err, err)
				return exitOf(err)
			}
			f := &fetch.Fetcher{Timeout: *timeout}
			if *timeout == 0 {
				f.Timeout = -1
			}
			news.apply(f, st)
			f.Mail.Server, f.Mail.From = *smtpServer, *from
			f.Mail.Dialer.StartTLS = *smtpTLS
			if *trace {
				f.Trace = st.Err
			}
			sent, err := f.Send(ctx, &u, st.In)
			if err != nil {
				fmt.Fprintln(st.Err, describeFor(err, func(flag string) bool { return fs.Lookup(flag) != nil }))
				return exitOf(err) // get's numbers: 7 connect, 28 timeout, 67 login refused...
			}
			for _, w := range sent.Warnings {
				fmt.Fprintf(st.Err, "urlkit: %s: warning: %s\n", quoteInput(u.Redacted(), 0), safetext.Visible(w))
			}
			fmt.Fprintf(st.Err, "urlkit: %s: %s\n", quoteInput(u.Redacted(), 0), safetext.Visible(sent.Reply))
			return exitOK
		}
	},
}

// newsOptions are the news server flags of get and send.
type newsOptions struct {
	server string
	user   string
	json   bool
}

// newsFlags defines --nntp, and --user with the usage text userUsage.
func newsFlags(fs *flag.FlagSet, o *newsOptions, userUsage string) {
	fs.StringVar(&o.server, "nntp", "", "the news server `HOST[:PORT]` of news: URLs (default $NNTPSERVER)")
	fs.StringVar(&o.user, "user", "", userUsage)
}

// apply sets the Fetcher's news settings; the password joins the
// secrets no message may show.
func (o *newsOptions) apply(f *fetch.Fetcher, st *Streams) {
	f.NNTP.Server, f.NNTP.JSON = o.server, o.json
	if o.user != "" {
		user, pass, _ := strings.Cut(o.user, ":")
		f.NNTP.User, f.NNTP.Password = user, pass
		if pass != "" && st.secrets != nil {
			st.secrets.Add(pass)
		}
	}
}
