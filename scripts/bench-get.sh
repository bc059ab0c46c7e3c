#!/bin/bash
# bench-get.sh [RUNS] : throughput and memory of `urlkit get` against curl on the
# same loopback servers: a big file over FTP (ProFTPD), Gopher (pygopherd and
# Gophernicus) and HTTP (nginx), written to /dev/null.
#
#   scripts/bench-get.sh          # 5 runs per client and server, 200 MiB files
#   BIG_MB=500 scripts/bench-get.sh 3
#
# Without FTP_PORT in the environment it starts the servers itself with
# scripts/with-servers.sh (FTP_BIG=1 GOPHER_BIG=1 GOPHERNICUS_BIG=1 HTTP_BIG=1);
# servers started by hand must have been started with those too. Installs curl
# and GNU time with apt-get if they are missing (needs root then).
#
# For each server it prints the median wall time of RUNS transfers per client
# (the clients alternate, so both see the same conditions), the throughput, the
# largest maximum RSS, and urlkit's throughput as a fraction of curl's. Each
# urlkit transfer's SHA-256 is checked against the file's once.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
RUNS=${1:-5}

if [ -z "${FTP_PORT:-}" ]; then
    mb=${BIG_MB:-200}
    exec env FTP_BIG=1 GOPHER_BIG=1 GOPHERNICUS_BIG=1 HTTP_BIG=1 \
        FTP_BIG_MB=$mb GOPHER_BIG_MB=$mb GOPHERNICUS_BIG_MB=$mb HTTP_BIG_MB=$mb \
        "$HERE/with-servers.sh" ftp gopher gophernicus http -- "$0" "$@"
fi
for v in FTP_BIG_PATH GOPHER_BIG_PATH GOPHERNICUS_BIG_PATH HTTP_BIG_PATH; do
    if [ -z "${!v:-}" ]; then
        echo "bench-get.sh: $v not set: start the servers with FTP_BIG=1 GOPHER_BIG=1 GOPHERNICUS_BIG=1 HTTP_BIG=1" >&2
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
(cd "$ROOT" && go build -o "$work/urlkit" ./cmd/urlkit) || exit 1

# run NAME CMD... : wall seconds (EPOCHREALTIME) and max RSS in KiB of one run
run() {
    local name=$1; shift
    local t0 t1
    t0=$EPOCHREALTIME
    /usr/bin/time -f '%M' -o "$work/rss" "$@" >/dev/null 2>"$work/err" || {
        echo "bench-get.sh: $name failed:" >&2; cat "$work/err" >&2; exit 1; }
    t1=$EPOCHREALTIME
    echo "$(echo "$t1 - $t0" | awk '{print $1 - $3}') $(tail -n 1 "$work/rss")"
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

printf '%-12s %8s | %10s %9s | %10s %9s | %s\n' server size "urlkit MB/s" "max RSS" "curl MB/s" "max RSS" "urlkit/curl"
for target in \
    "ftp ftp://127.0.0.1:$FTP_PORT$FTP_BIG_PATH $FTP_BIG_SIZE" \
    "pygopherd gopher://127.0.0.1:$GOPHER_PORT/9$GOPHER_BIG_PATH $GOPHER_BIG_SIZE" \
    "gophernicus gopher://127.0.0.1:$GOPHERNICUS_PORT/9$GOPHERNICUS_BIG_PATH $GOPHERNICUS_BIG_SIZE" \
    "http http://127.0.0.1:$HTTP_PORT$HTTP_BIG_PATH $HTTP_BIG_SIZE"; do
    set -- $target
    name=$1 url=$2 bytes=$3
    # The files are zeros: check one urlkit transfer against that.
    want=$(head -c "$bytes" /dev/zero | sha256sum | cut -d' ' -f1)
    got=$("$work/urlkit" get -q "$url" | sha256sum | cut -d' ' -f1)
    if [ "$got" != "$want" ]; then
        echo "bench-get.sh: $name: SHA-256 mismatch ($got, want $want)" >&2; exit 1
    fi
    : >"$work/u"; : >"$work/c"
    for i in $(seq "$RUNS"); do
        if [ $((i % 2)) = 1 ]; then
            run urlkit "$work/urlkit" get -q "$url" >>"$work/u"
            run curl curl -sS -o /dev/null "$url" >>"$work/c"
        else
            run curl curl -sS -o /dev/null "$url" >>"$work/c"
            run urlkit "$work/urlkit" get -q "$url" >>"$work/u"
        fi
    done
    ut=$(cut -d' ' -f1 "$work/u" | median); ct=$(cut -d' ' -f1 "$work/c" | median)
    ur=$(cut -d' ' -f2 "$work/u" | sort -n | tail -n 1); cr=$(cut -d' ' -f2 "$work/c" | sort -n | tail -n 1)
    awk -v n="$name" -v b="$bytes" -v ut="$ut" -v ct="$ct" -v ur="$ur" -v cr="$cr" 'BEGIN {
        printf "%-12s %5d MiB | %10.0f %6.1f MiB | %10.0f %6.1f MiB | %.2f\n",
            n, b/1048576, b/ut/1e6, ur/1024, b/ct/1e6, cr/1024, ct/ut }'
done
echo "($RUNS runs each, median wall time incl. process start; output to /dev/null; sha256 checked)"
