#!/bin/bash
# bench-transport.sh [RUNS] : a big FTP file (ProFTPD on loopback, 200 MiB by
# default) fetched side by side, in one run, by
#   get        urlkit get URL > /dev/null (the reference)
#   transport  an http.Client on fetch.Transport (scripts/transportget.go)
#   serve      curl -x through `urlkit serve` (when this tree's urlkit has it)
#   squid      curl -x through Debian's Squid as an FTP proxy (no cache)
# and prints each one's median throughput and its ratio to urlkit get (issue
# 38: the Transport and the gateway at >= 0.9 of get and >= Squid).
#
#   scripts/bench-transport.sh         # 5 runs of each, 200 MiB
#   BIG_MB=500 scripts/bench-transport.sh 3
#   SERVE_URLKIT=/tmp/urlkit-serve scripts/bench-transport.sh   # that binary's serve
#
# Without FTP_BIG_PATH in the environment it starts ProFTPD itself with
# scripts/with-servers.sh (FTP_BIG=1). Installs squid, curl and GNU time with
# apt-get if they are missing (needs root). Every connection stays on
# 127.0.0.1. The clients run in turn within each run (the order rotates), so
# load from other jobs hits them alike. Throughput: file bytes / wall time of
# the whole process (start included); each output's size is checked. CPU:
# user+system seconds of the client process, and for serve and squid also of
# the proxy (from /proc): what the path costs whatever else the machine runs.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
RUNS=${1:-5}

if [ -z "${FTP_BIG_PATH:-}" ]; then
    exec env FTP_BIG=1 FTP_BIG_MB="${BIG_MB:-200}" "$HERE/with-servers.sh" ftp -- "$0" "$@"
fi

SCRIPT_NAME=bench-transport.sh
. "$HERE/servers/lib.sh" # need_pkg, pick_port, wait_port
need_pkg curl squid time

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-transport.XXXXXX") || exit 1
chmod 777 "$work" # squid's logs, as its effective user
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT

(cd "$ROOT" && CGO_ENABLED=0 go build -o "$work/urlkit" ./cmd/urlkit &&
    CGO_ENABLED=0 go build -o "$work/transportget" scripts/transportget.go) || exit 1

# Squid: an HTTP proxy on loopback that fetches ftp: URLs itself, nothing cached.
SQUID_PORT=$(pick_port BENCH_SQUID_PORT 3228)
cat >"$work/squid.conf" <<EOF
http_port 127.0.0.1:$SQUID_PORT
pid_filename $work/squid.pid
cache_log $work/squid-cache.log
access_log none
cache deny all
cache_mem 8 MB
netdb_filename none
coredump_dir $work
http_access allow localhost
http_access deny all
ftp_passive on
ftp_user bench@example.org
EOF
squid -N -f "$work/squid.conf" >"$work/squid.out" 2>&1 &
pids+=($!)
wait_port "$!" "$SQUID_PORT" 10 || { echo "bench-transport.sh: squid did not start:" >&2; cat "$work/squid.out" "$work/squid-cache.log" >&2; exit 1; }

clients=(get transport squid)
SERVE_PORT=
serve_bin=${SERVE_URLKIT:-$work/urlkit}
if "$serve_bin" serve -h >/dev/null 2>&1; then
    SERVE_PORT=$(pick_port BENCH_SERVE_PORT 8170)
    "$serve_bin" serve --listen "127.0.0.1:$SERVE_PORT" --allow-dest "127.0.0.1" >"$work/serve.out" 2>&1 &
    pids+=($!)
    if wait_port "$!" "$SERVE_PORT" 10; then
        clients=(get transport serve squid)
    else
        echo "bench-transport.sh: urlkit serve did not start; its row is left out:" >&2
        cat "$work/serve.out" >&2
    fi
else
    echo "bench-transport.sh: this urlkit has no serve command yet; its row is left out" >&2
fi

URL="ftp://127.0.0.1:$FTP_PORT$FTP_BIG_PATH"
SIZE=$FTP_BIG_SIZE

# ticks PID: the CPU time (user + system, clock ticks) a running process has used.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
HZ=$(getconf CLK_TCK)
SQUID_PID=${pids[0]}
SERVE_PID=${pids[1]:-}

# fetch CLIENT: one transfer; appends "seconds cpu-seconds" to $work/CLIENT
# (the CPU of the client process, and of the proxy for serve and squid) and
# checks the size.
fetch() {
    local n t0 t1 p0=0 p1=0 proxy=
    case $1 in
    serve) proxy=$SERVE_PID ;;
    squid) proxy=$SQUID_PID ;;
    esac
    [ -n "$proxy" ] && p0=$(ticks "$proxy")
    t0=$(date +%s.%N)
    case $1 in
    get) n=$(/usr/bin/time -f '%U %S' -o "$work/time" "$work/urlkit" get "$URL" | wc -c) ;;
    transport) n=$(/usr/bin/time -f '%U %S' -o "$work/time" "$work/transportget" "$URL" | wc -c) ;;
    serve) n=$(/usr/bin/time -f '%U %S' -o "$work/time" curl -sS -f -x "http://127.0.0.1:$SERVE_PORT" "$URL" | wc -c) ;;
    squid) n=$(/usr/bin/time -f '%U %S' -o "$work/time" curl -sS -f -x "http://127.0.0.1:$SQUID_PORT" "$URL" | wc -c) ;;
    esac
    t1=$(date +%s.%N)
    [ -n "$proxy" ] && p1=$(ticks "$proxy")
    if [ "$n" != "$SIZE" ]; then
        echo "bench-transport.sh: $1 fetched $n bytes, want $SIZE" >&2
        exit 1
    fi
    awk -v a="$t0" -v b="$t1" -v p="$((p1 - p0))" -v hz="$HZ" '{printf "%.4f %.3f\n", b - a, $1 + $2 + p / hz}' "$work/time" >>"$work/$1"
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

for c in "${clients[@]}"; do fetch "$c"; : >"$work/$c"; done # warm up: caches, the first connection
for r in $(seq "$RUNS"); do
    k=${#clients[@]}
    for i in $(seq 0 $((k - 1))); do
        fetch "${clients[$(((i + r) % k))]}"
    done
done

mib=$((SIZE / 1048576))
echo "FTP, $mib MiB from ProFTPD on loopback, median of $RUNS runs"
echo "(MB/s: 10^6 bytes per second of wall time; CPU: user+system seconds of the client, and of the proxy for serve and squid)"
printf '%-10s %9s %9s %9s %9s\n' client "MB/s" "/ get" "CPU s" "CPU MB/s"
gt=$(cut -d' ' -f1 "$work/get" | median)
for c in "${clients[@]}"; do
    t=$(cut -d' ' -f1 "$work/$c" | median)
    cpu=$(cut -d' ' -f2 "$work/$c" | median)
    awk -v c="$c" -v s="$SIZE" -v t="$t" -v g="$gt" -v u="$cpu" 'BEGIN {printf "%-10s %9.0f %9.2f %9.2f %9.0f\n", c, s / t / 1e6, g / t, u, (u > 0 ? s / u / 1e6 : 0)}'
done
