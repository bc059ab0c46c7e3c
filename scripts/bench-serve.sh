#!/bin/bash
# bench-serve.sh : load on `urlkit serve` (issue 38 item 5), on the loopback
# servers of with-servers.sh (pygopherd, ProFTPD); loopback only.
#
#   scripts/bench-serve.sh
#   URLKIT=/tmp/urlkit-old scripts/bench-serve.sh   # that binary instead of this tree's
#   CLIENTS=200 REQUESTS=10000 scripts/bench-serve.sh
#
# 1. load: 200 concurrent clients (scripts/loadgen.go, keep-alive
#    connections), 10,000 proxy-form requests in turn for a Gopher menu,
#    text and binary, an FTP file and an FTP directory (4,000 FTP fetches).
#    Every answer must be 200 and as long as the first answer for its URL
#    (loadgen fails otherwise).
# 2. speed: 200 clients, 10,000 requests for a Gopher menu: requests per
#    second, p50 and p99 latency.
# 3. the gateway's CPU time and peak RSS after both: from /proc/PID/stat and
#    VmHWM of /proc/PID/status (goal: under 128 MB).
# The gateway runs as `urlkit serve` with its default limits (64 fetches at
# once, 16 per client: all the load comes from 127.0.0.1, so 16 fetches go
# upstream at once and the other requests wait, which keeps ProFTPD under its
# 20 anonymous logins) and an access log. ProFTPD runs under socat in inetd
# mode, a process per connection, which is most of an FTP fetch's time.
#
# The speed of a big file through the gateway, beside urlkit get and Squid, is
# scripts/bench-transport.sh's.
#
# Without FTP_PORT and GOPHER_PORT in the environment it starts the servers
# itself with scripts/with-servers.sh.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
CLIENTS=${CLIENTS:-200}
REQUESTS=${REQUESTS:-10000}

if [ -z "${FTP_PORT:-}" ] || [ -z "${GOPHER_PORT:-}" ]; then
    exec "$HERE/with-servers.sh" ftp gopher -- "$0" "$@"
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/bench-serve.XXXXXX") || exit 1
GW_PID=
cleanup() {
    [ -n "$GW_PID" ] && kill "$GW_PID" 2>/dev/null && wait "$GW_PID" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

cd "$ROOT" || exit 1
URLKIT=${URLKIT:-}
if [ -z "$URLKIT" ]; then
    go build -o "$TMP/urlkit" ./cmd/urlkit || exit 1
    URLKIT=$TMP/urlkit
fi
go build -o "$TMP/loadgen" scripts/loadgen.go || exit 1

# The gateway, on a free loopback port it names on standard error.
"$URLKIT" serve --listen 127.0.0.1:0 --allow-dest 127.0.0.1 --access-log "$TMP/access.log" 2>"$TMP/serve.err" &
GW_PID=$!
GW=
for _ in $(seq 100); do
    GW=$(sed -n 's|.*listening on \(http://127\.0\.0\.1:[0-9]*\)/.*|\1|p' "$TMP/serve.err")
    [ -n "$GW" ] && break
    sleep 0.05
done
[ -n "$GW" ] || { echo "bench-serve.sh: the gateway did not start: $(cat "$TMP/serve.err")" >&2; exit 1; }

G=gopher://127.0.0.1:$GOPHER_PORT
F=ftp://127.0.0.1:$FTP_PORT
fail=0
echo "## load: $CLIENTS clients, $REQUESTS requests (Gopher menu, text and binary; FTP file and directory)"
"$TMP/loadgen" -proxy "$GW" -c "$CLIENTS" -n "$REQUESTS" "$G/1/" "$F/pub/hello.txt" "$G/0/hello.txt" "$F/pub/" "$G/9/bin/data.bin" || fail=1
echo "## speed: $CLIENTS clients, $REQUESTS requests for a Gopher menu"
"$TMP/loadgen" -proxy "$GW" -c "$CLIENTS" -n "$REQUESTS" "$G/1/" || fail=1
# The gateway's own CPU time (user+sys, from /proc/PID/stat): how much of
# the time it, rather than the servers, took.
ticks=$(awk '{print $14 + $15}' "/proc/$GW_PID/stat")
echo "## the gateway's CPU time: $(awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" -v n=$((2 * REQUESTS)) 'BEGIN {printf "%.1f s in all, %.2f ms per request", t / hz, t / hz * 1000 / n}')"
hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$GW_PID/status")
echo "## the gateway's peak RSS (VmHWM): $((hwm / 1024)) MB; goal: under 128 MB"
[ "$hwm" -lt $((128 * 1024)) ] || fail=1
echo "access log: $(wc -l <"$TMP/access.log") lines, $(grep -vc '" 200 ' "$TMP/access.log") not 200"
exit $fail
