#!/bin/bash
# bench-get.sh [RUNS] : `urlkit get` against curl on the same loopback servers,
# one table: a big file over FTP (ProFTPD, TYPE I and TYPE A), Gopher
# (pygopherd and Gophernicus) and HTTP (nginx), written to /dev/null.
#
#   scripts/bench-get.sh          # 5 runs per client and server, 200 MiB files
#   BIG_MB=500 scripts/bench-get.sh 3
#   URLKIT=/tmp/urlkit-old scripts/bench-get.sh   # that binary instead of this tree's
#
# Without FTP_PORT in the environment it starts the servers itself with
# scripts/with-servers.sh (FTP_BIG=1 FTP_BIG_TEXT=1 GOPHER_BIG=1 GOPHERNICUS_BIG=1 HTTP_BIG=1);
# servers started by hand must have been started with those too. Installs curl
# and GNU time with apt-get if they are missing (needs root then).
#
# Each run transfers the file with urlkit and with curl, in alternating order
# (so load from other jobs hits both alike), then with "bare": a minimal Go
# reader built by this script that speaks just enough of the protocol and
# discards the bytes. Bare shows what the server can send: when urlkit, curl
# and bare are all near the same rate, the server is the limit, not the client.
#
# Columns: the median throughput of each client (file bytes / wall time of the
# whole process, start included); urlkit/curl as the ratio of the medians and
# the lowest and highest ratio of the runs' pairs (each urlkit run with the curl
# run next to it); the CPU rate (file bytes / median user+sys seconds: what a
# client costs, whatever the server's speed); the largest maximum RSS of any
# run. The "ftp type A" row fetches a text file (LF lines, CRLF on the wire)
# with ;type=a and curl -B, both converting CRLF to LF; its bare reader reads
# the wire unconverted. ProFTPD's own LF -> CRLF conversion limits that row, so
# "ftp A, CRLF" does the same with a file stored with CRLF, from the second
# ProFTPD of start-ftp.sh (FTP_RAWASCII_PORT, TransferOptions IgnoreASCII),
# which sends it as stored: the clients' conversion is then the work. The last line is the TYPE A conversion alone
# (BenchmarkASCIIReader, in one process, no network). Outputs are checked
# against SHA-256 once per row.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
RUNS=${1:-5}

if [ -z "${FTP_PORT:-}" ]; then
    mb=${BIG_MB:-200}
    exec env FTP_BIG=1 FTP_BIG_TEXT=1 GOPHER_BIG=1 GOPHERNICUS_BIG=1 HTTP_BIG=1 \
        FTP_BIG_MB=$mb GOPHER_BIG_MB=$mb GOPHERNICUS_BIG_MB=$mb HTTP_BIG_MB=$mb \
        "$HERE/with-servers.sh" ftp gopher gophernicus http -- "$0" "$@"
fi
for v in FTP_BIG_PATH FTP_BIG_TEXT_PATH GOPHER_BIG_PATH GOPHERNICUS_BIG_PATH HTTP_BIG_PATH; do
    if [ -z "${!v:-}" ]; then
        echo "bench-get.sh: $v not set: start the servers with FTP_BIG=1 FTP_BIG_TEXT=1 GOPHER_BIG=1 GOPHERNICUS_BIG=1 HTTP_BIG=1" >&2
        exit 2
    fi
done

need() {  # need COMMAND PACKAGE
    command -v "$1" >/dev/null 2>&1 && return 0
    echo "bench-get.sh: installing $2" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$2" >&2 ||
        { apt-get update >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$2" >&2; } ||
        { echo "bench-get.sh: cannot install $2" >&2; exit 1; }
}
need curl curl
[ -x /usr/bin/time ] || need /usr/bin/time time

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-get.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
if [ -n "${URLKIT:-}" ]; then # another build, e.g. the one before a change
    cp "$URLKIT" "$work/urlkit" || exit 1
else
    (cd "$ROOT" && CGO_ENABLED=0 go build -o "$work/urlkit" ./cmd/urlkit) || exit 1 # as README installs it
fi

# The bare reader: the fewest protocol steps, a 256 KiB buffer, no output.
mkdir -p "$work/bare"
cat >"$work/bare/main.go" <<'EOF'
// bare gopher|http|ftp-i|ftp-a HOST:PORT PATH: fetch PATH, discard it.
package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
)

func main() {
	mode, addr, path := os.Args[1], os.Args[2], os.Args[3]
	c, err := net.Dial("tcp", addr)
	check(err)
	var data net.Conn
	switch mode {
	case "gopher":
		fmt.Fprintf(c, "%s\r\n", path)
		data = c
	case "http":
		fmt.Fprintf(c, "GET %s HTTP/1.0\r\nHost: %s\r\n\r\n", path, addr)
		data = c
	case "ftp-i", "ftp-a":
		r := bufio.NewReader(c)
		reply(r)
		typ := strings.ToUpper(mode[4:])
		for _, cmd := range []string{"USER anonymous", "PASS bench@", "TYPE " + typ, "EPSV"} {
			fmt.Fprintf(c, "%s\r\n", cmd)
			if line := reply(r); cmd == "EPSV" {
				var port int
				_, err := fmt.Sscanf(line[strings.Index(line, "(|||"):], "(|||%d|)", &port)
				check(err)
				host, _, _ := net.SplitHostPort(addr)
				data, err = net.Dial("tcp", net.JoinHostPort(host, fmt.Sprint(port)))
				check(err)
			}
		}
		fmt.Fprintf(c, "RETR %s\r\n", path)
		reply(r)
		defer func() { reply(r); fmt.Fprintf(c, "QUIT\r\n") }()
	}
	n, err := io.CopyBuffer(struct{ io.Writer }{io.Discard}, struct{ io.Reader }{data}, make([]byte, 256<<10))
	check(err)
	data.Close()
	fmt.Fprintln(os.Stderr, n, "bytes")
}

// reply reads an FTP reply (the last line of a multi-line one) and fails
// on a 4xx or 5xx code.
func reply(r *bufio.Reader) string {
	for {
		line, err := r.ReadString('\n')
		check(err)
		if len(line) >= 4 && line[3] == ' ' {
			if line[0] >= '4' {
				check(fmt.Errorf("%s", line))
			}
			return line
		}
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		os.Exit(1)
	}
}
EOF
(cd "$work/bare" && printf 'module bare\n\ngo 1.21\n' >go.mod && go build -o "$work/bare-get" .) || exit 1

# run FILE CMD... : append "wall cpu maxrss_kib" of one run to FILE
run() {
    local out=$1; shift
    local t0 t1
    t0=$EPOCHREALTIME
    /usr/bin/time -f '%U %S %M' -o "$work/time" "$@" >/dev/null 2>"$work/err" || {
        echo "bench-get.sh: failed: $*" >&2; cat "$work/err" >&2; exit 1; }
    t1=$EPOCHREALTIME
    awk -v a="$t0" -v b="$t1" '{printf "%.4f %.3f %d\n", b - a, $1 + $2, $3}' "$work/time" >>"$out"
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# sum256 CMD... : SHA-256 of CMD's standard output
sum256() { "$@" 2>/dev/null | sha256sum | cut -d' ' -f1; }

zeros=$(head -c "$FTP_BIG_SIZE" /dev/zero | sha256sum | cut -d' ' -f1)
# The text file as stored (LF lines): what both clients must write in TYPE A.
if [ -r "${FTP_DIR:-}/anon$FTP_BIG_TEXT_PATH" ]; then
    text=$(sha256sum <"$FTP_DIR/anon$FTP_BIG_TEXT_PATH" | cut -d' ' -f1)
    text_size=$(wc -c <"$FTP_DIR/anon$FTP_BIG_TEXT_PATH")
else # servers elsewhere: trust curl -B
    text=$(sum256 curl -sS -B "ftp://127.0.0.1:$FTP_PORT$FTP_BIG_TEXT_PATH")
    text_size=$(curl -sS -B "ftp://127.0.0.1:$FTP_PORT$FTP_BIG_TEXT_PATH" | wc -c)
fi

# The CRLF text from the IgnoreASCII server, converted: the same lines with LF.
crlf_row=
if [ -n "${FTP_RAWASCII_PORT:-}" ] && [ -r "${FTP_DIR:-}/anon${FTP_BIG_CRLF_PATH:-}" ]; then
    f="$FTP_DIR/anon$FTP_BIG_CRLF_PATH"
    crlf_row="ftp A, CRLF|ftp://127.0.0.1:$FTP_RAWASCII_PORT$FTP_BIG_CRLF_PATH;type=a|-B ftp://127.0.0.1:$FTP_RAWASCII_PORT$FTP_BIG_CRLF_PATH|ftp-a 127.0.0.1:$FTP_RAWASCII_PORT $FTP_BIG_CRLF_PATH|$(tr -d '\r' <"$f" | wc -c)|$(tr -d '\r' <"$f" | sha256sum | cut -d' ' -f1)"
fi

printf '%-13s %4s | %7s %7s %7s | %-16s | %-15s | %-13s\n' "" "" "urlkit" "curl" "bare" "urlkit/curl" "CPU MB/s" "max RSS MiB"
printf '%-13s %4s | %7s %7s %7s | %-16s | %-15s | %-13s\n' server MiB "MB/s" "MB/s" "MB/s" "median (min-max)" "urlkit    curl" "urlkit  curl"
for row in \
    "ftp|ftp://127.0.0.1:$FTP_PORT$FTP_BIG_PATH||ftp-i 127.0.0.1:$FTP_PORT $FTP_BIG_PATH|$FTP_BIG_SIZE|$zeros" \
    "ftp type A|ftp://127.0.0.1:$FTP_PORT$FTP_BIG_TEXT_PATH;type=a|-B ftp://127.0.0.1:$FTP_PORT$FTP_BIG_TEXT_PATH|ftp-a 127.0.0.1:$FTP_PORT $FTP_BIG_TEXT_PATH|$text_size|$text" \
    ${crlf_row:+"$crlf_row"} \
    "pygopherd|gopher://127.0.0.1:$GOPHER_PORT/9$GOPHER_BIG_PATH||gopher 127.0.0.1:$GOPHER_PORT $GOPHER_BIG_PATH|$GOPHER_BIG_SIZE|$zeros" \
    "gophernicus|gopher://127.0.0.1:$GOPHERNICUS_PORT/9$GOPHERNICUS_BIG_PATH||gopher 127.0.0.1:$GOPHERNICUS_PORT $GOPHERNICUS_BIG_PATH|$GOPHERNICUS_BIG_SIZE|$zeros" \
    "http|http://127.0.0.1:$HTTP_PORT$HTTP_BIG_PATH||http 127.0.0.1:$HTTP_PORT $HTTP_BIG_PATH|$HTTP_BIG_SIZE|$zeros"; do
    IFS='|' read -r name url curlargs bareargs bytes want <<<"$row"
    [ -n "$curlargs" ] || curlargs=$url
    got=$(sum256 "$work/urlkit" get -q "$url")
    if [ "$got" != "$want" ]; then
        echo "bench-get.sh: $name: urlkit's output has SHA-256 $got, want $want" >&2; exit 1
    fi
    : >"$work/u"; : >"$work/c"; : >"$work/b"
    for i in $(seq "$RUNS"); do
        if [ $((i % 2)) = 1 ]; then
            run "$work/u" "$work/urlkit" get -q "$url"
            run "$work/c" curl -sS -o /dev/null $curlargs
        else
            run "$work/c" curl -sS -o /dev/null $curlargs
            run "$work/u" "$work/urlkit" get -q "$url"
        fi
        run "$work/b" "$work/bare-get" $bareargs
    done
    ut=$(cut -d' ' -f1 "$work/u" | median); ct=$(cut -d' ' -f1 "$work/c" | median); bt=$(cut -d' ' -f1 "$work/b" | median)
    uc=$(cut -d' ' -f2 "$work/u" | median); cc=$(cut -d' ' -f2 "$work/c" | median)
    ur=$(cut -d' ' -f3 "$work/u" | sort -n | tail -n 1); cr=$(cut -d' ' -f3 "$work/c" | sort -n | tail -n 1)
    pairs=$(paste -d' ' "$work/u" "$work/c" | awk 'NR==1 {lo=hi=$4/$1} {r=$4/$1; if (r<lo) lo=r; if (r>hi) hi=r} END {printf "%.2f-%.2f", lo, hi}')
    awk -v n="$name" -v b="$bytes" -v ut="$ut" -v ct="$ct" -v bt="$bt" -v uc="$uc" -v cc="$cc" \
        -v ur="$ur" -v cr="$cr" -v pairs="$pairs" 'BEGIN {
        printf "%-13s %4d | %7.0f %7.0f %7.0f | %4.2f (%s) | %6.0f  %6.0f | %5.1f  %5.1f\n",
            n, b/1048576, b/ut/1e6, b/ct/1e6, b/bt/1e6, ct/ut, pairs,
            (uc > 0 ? b/uc/1e6 : 0), (cc > 0 ? b/cc/1e6 : 0), ur/1024, cr/1024 }'
done
conv=$(cd "$ROOT" && go test -run '^$' -bench 'ASCIIReader$' -benchtime 50x -count 3 ./client/ftp 2>/dev/null |
    awk '/MB\/s/ {print $(NF-1)}' | median)
echo "TYPE A conversion alone (BenchmarkASCIIReader, ~30-byte CRLF lines, median of 3): $conv MB/s"
echo "($RUNS runs each; wall time of the whole process, output to /dev/null; SHA-256 checked once per row;"
echo " load average $(cut -d' ' -f1-3 /proc/loadavg))"
