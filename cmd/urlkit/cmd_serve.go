package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/urlkit/urlkit/gateway"
	"github.com/urlkit/urlkit/internal/safetext"
)

var serveCmd = &command{
	name:         "serve",
	flagSynopsis: true,
	exit:         "Exit status: 0 stopped by a signal; 1 the gateway could not listen or failed; 2 usage error\n(also a listen address that is not loopback without --allow-from).",
	summary:      "serve an HTTP gateway to every scheme get reaches (proxy form and web form)",
	detail: `Serve is an HTTP gateway (RFC 1738 section 4) for every scheme get reaches:
ftp, gopher, news and nntp, wais, prospero, file, http, and pages that
say how to open telnet, rlogin and tn3270 sessions. Two ways in:

  proxy form  an absolute URL on the request line, as an HTTP client
              sends it to a proxy: the object's bytes.
                curl -x http://127.0.0.1:8070 gopher://gopher.example.org/1/
              CONNECT is refused (405).
  web form    http://127.0.0.1:8070/ in a browser: a home page with a URL
              field; /URL (/gopher://host:70/1/docs) renders URL for a
              person, every link on the page leading back through the
              gateway.

A gateway is not an attack tool. It listens on 127.0.0.1:8070 unless
--listen says otherwise; a listen address that is not loopback needs
--allow-from (serve exits 2 without it), and clients outside --allow-from
(loopback is always allowed) get 403 before anything is fetched.
Destinations that resolve to loopback, private, link-local, CGNAT,
multicast or unspecified addresses, or to the gateway's own, are refused
(403) unless --allow-dest names them; the check is on each address
dialled (FTP data connections and Prospero's replies included), so DNS
rebinding does not pass it. get's port policy and its CR/LF/NUL guard
apply. Fetches in progress are bounded (--max-conns in all, a quarter of
it per client), and so are the time of a request (--timeout), the bytes
of a response (1 GiB), the wait for each piece of data and each write
(30 s), and a request's header (16 KiB). Every response carries a
Content-Security-Policy without script sources, nosniff and
no-referrer; robots.txt disallows everything. An FTP login without a
password is answered with a Basic challenge (401); the password is used
for that request only, and never appears in a page, a link or the log.

Status codes: 200; 303 (?url=); 400 the URL does not parse (the body
names the offset and the rule); 401 a login needs a password; 403
refused by policy; 404 no such object; 405 CONNECT; 429 and 503 too many
fetches; 502 the upstream failed; 504 the upstream timed out.

Examples:
  urlkit serve
  urlkit serve --allow-dest 127.0.0.1 --access-log access.log
  urlkit serve --listen 0.0.0.0:8070 --allow-from 192.0.2.0/24 --nntp news.example.org`,
	setup: func(fs *flag.FlagSet) func(context.Context, *Streams, []string) int {
		var cfg gateway.Config
		listen := fs.String("listen", gateway.DefaultListen, "listen on `ADDR` (IP:PORT)")
		fs.Var(listFlag{list: &cfg.AllowFrom}, "allow-from", "let clients in `CIDR` use the gateway (repeatable; loopback always may)")
		fs.Var(listFlag{list: &cfg.AllowDest}, "allow-dest", "let the gateway connect to `HOST[:PORT]` although it is loopback, private, ... (repeatable)")
		fs.StringVar(&cfg.AllowFile, "allow-file", "", "serve file: URLs under `DIR` (off by default)")
		fs.BoolVar(&cfg.AllowPost, "allow-post", false, "let the web form post news articles")
		fs.BoolVar(&cfg.AllowSend, "allow-send", false, "let the web form send mail (with --smtp)")
		fs.StringVar(&cfg.NNTP, "nntp", "", "the news server `HOST[:PORT]` of news: URLs (default $NNTPSERVER)")
		fs.StringVar(&cfg.SMTP, "smtp", "", "the mail server `HOST[:PORT]` the web form sends through (default $SMTPSERVER; the sender is $EMAIL)")
		fs.IntVar(&cfg.MaxConns, "max-conns", 64, "at most `N` fetches in progress at once (a quarter of them per client)")
		durationVar(fs, &cfg.Timeout, "timeout", 2*time.Minute, "give up a request after `D`")
		accessLog := fs.String("access-log", "", "append a Common Log Format line per request to `FILE` (passwords redacted)")
		return func(ctx context.Context, st *Streams, args []string) int {
			if len(args) != 0 {
				fmt.Fprintf(st.Err, "urlkit serve: takes no arguments, got %d\n", len(args))
				return exitUsage
			}
			if cfg.NNTP == "" {
				cfg.NNTP = os.Getenv("NNTPSERVER")
			}
			if cfg.SMTP == "" {
				cfg.SMTP = os.Getenv("SMTPSERVER")
			}
			// The sender of mail sent from the web form, as send's default.
			cfg.MailFrom = os.Getenv("EMAIL")
			if cfg.AllowSend && (cfg.SMTP == "" || cfg.MailFrom == "") {
				fmt.Fprintln(st.Err, "urlkit serve: --allow-send needs a mail server (--smtp or $SMTPSERVER) and a sender ($EMAIL)")
				return exitUsage
			}
			if *accessLog != "" {
				f, err := os.OpenFile(*accessLog, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o640)
				if err != nil {
					fmt.Fprintf(st.Err, "urlkit serve: %s\n", safetext.Visible(err.Error()))
					return exitFail
				}
				defer f.Close()
				cfg.AccessLog = f
			}
			return serve(ctx, st, *listen, cfg)
		}
	},
}

// serve listens on addr and serves the gateway cfg describes until ctx
// ends. The gateway is configured with the address listened on, as the
// system resolved it (localhost:8070, :8070, a port 0), and judged by
// it: no client is accepted before that.
func serve(ctx context.Context, st *Streams, addr string, cfg gateway.Config) int {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(st.Err, "urlkit serve: %s\n", safetext.Visible(err.Error()))
		return exitFail
	}
	cfg.Listen = []string{ln.Addr().String()}
	h, err := gateway.New(cfg)
	if err != nil {
		ln.Close()
		fmt.Fprintf(st.Err, "urlkit serve: %s\n", safetext.Visible(err.Error()))
		return exitUsage
	}
	defer h.Close()
	srv := h.Server()
	fmt.Fprintf(st.Err, "urlkit serve: listening on http://%s/ (proxy form: curl -x http://%[1]s URL)\n", ln.Addr())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(st.Err, "urlkit serve: %s\n", safetext.Visible(err.Error()))
		return exitFail
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintf(st.Err, "urlkit serve: %s\n", safetext.Visible(err.Error()))
	}
	srv.Close()
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(st.Err, "urlkit serve: %s\n", safetext.Visible(err.Error()))
		return exitFail
	}
	return exitOK
}
