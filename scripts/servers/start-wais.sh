#!/bin/bash
# start-wais.sh [DIR] : a real WAIS server (freeWAIS-sf 2.2.10 waisserver, the
# WAIS protocol: a 25-byte WAIS header + Z39.50-1988 APDUs + the WAIS
# extensions) on TCP 127.0.0.1:$WAIS_PORT, with a database "test" built by its
# own indexer (waisindex -t first_line).
#
# Debian has no WAIS server, so it is built from the upstream tarball and the
# Linux patch in $(server_src) (../shared/servers/src; see its README.md for
# origin and licence) with gcc, make and the ncurses headers (installed on
# demand). The build is cached (build_cached in lib.sh): about 15-40 s once.
#
# Database "test", three documents (headline = first line):
#   alpha.txt "Alpha document about gophers" (gopher, Minnesota, rodents)
#   beta.txt  "Beta document about wais" (Thinking Machines, Z39.50-1988)
#   gamma.txt "Gamma document about the web" (URLs, RFC 1738, wais, gopher)
#   big.txt   "Big document for chunked retrieval" (WAIS_BIG_SIZE bytes of
#             numbered lines, more than one retrieval chunk)
# "gopher" finds alpha and gamma, "wais" beta and gamma. A DocID holds the
# server's host name, port and absolute paths: tests take it from a search.
#
# Port: $WAIS_PORT if set (must be free), else the first free port from 2210 up.
# Server-side log: DIR/server.log (waisserver -e: one entry per request, with
# the search words), so tests can check what reached the server.
# Its own client: $WAIS_BIN/waissearch -h 127.0.0.1 -p $WAIS_PORT -d test WORDS.
#
# stdout: WAIS_PID= WAIS_PORT= WAIS_DIR= WAIS_DATABASE= WAIS_BIN= WAIS_LOG=
#         WAIS_BIG_SIZE=; also DIR/env.
# stop:   ./stop.sh DIR
set -u
SCRIPT_NAME=start-wais.sh
. "$(dirname "$0")/lib.sh"
SRC=$(server_src) || exit 1

need_pkg gcc make patch libc6-dev libncurses-dev
# Configure keeps the 1997 yacc/lex output (no bison/flex needed)
TOP=$(build_cached freewais "$SRC/freeWAIS-sf-2.2.10.tar.gz" "$SRC/freewais-sf-2.2.10-linux.patch" '
    touch lib/ir/*_y.c lib/ir/*_y.h lib/ir/*_l.c &&
    ./Configure -des -Dprefix="$PWD/inst" </dev/null &&
    make') || exit 1
DIR=$(make_dir "${1:-}")
PORT=$(pick_port WAIS_PORT 2210) || exit 1
port_busy "$PORT" && die "127.0.0.1:$PORT is already in use (set WAIS_PORT)"

rm -rf "$DIR/corpus" "$DIR/db"
mkdir -p "$DIR/corpus" "$DIR/db"
printf 'Alpha document about gophers\nThe gopher protocol was developed at the University of Minnesota.\nGophers are also small burrowing rodents.\n' >"$DIR/corpus/alpha.txt"
printf 'Beta document about wais\nWAIS means Wide Area Information Servers. It was built by Thinking Machines,\nApple, Dow Jones and KPMG. The protocol is based on Z39.50-1988.\n' >"$DIR/corpus/beta.txt"
printf 'Gamma document about the web\nThe World Wide Web uses URLs; RFC 1738 defines wais, gopher, ftp and http URLs.\nSearching a wais database returns document identifiers.\n' >"$DIR/corpus/gamma.txt"
{
    printf 'Big document for chunked retrieval\n'
    for i in $(seq 1 2000); do printf 'line %05d of the big zeppelin document\n' "$i"; done
} >"$DIR/corpus/big.txt"
BIG_SIZE=$(wc -c <"$DIR/corpus/big.txt")
"$TOP/indexer/waisindex" -d "$DIR/db/test" -t first_line "$DIR"/corpus/*.txt 2>"$DIR/index.log" \
    || { tail -n 20 "$DIR/index.log" >&2; die "waisindex failed"; }

cd "$DIR/db"
# WAIS_BIND_ADDRESS (added by the patch) binds to loopback only
start_bg "$DIR" waisserver env WAIS_BIND_ADDRESS=127.0.0.1 "$TOP/server/waisserver" -p "$PORT" -d "$DIR/db" -e "$DIR/server.log"
wait_port "$SERVER_PID" "$PORT" 20 || fail_start "$DIR" waisserver

START_OK=1
cat <<EOT | tee "$DIR/env"
WAIS_PID=$SERVER_PID
WAIS_PORT=$PORT
WAIS_DIR=$DIR
WAIS_DATABASE=test
WAIS_BIN=$TOP/ui
WAIS_LOG=$DIR/server.log
WAIS_BIG_SIZE=$BIG_SIZE
EOT
log "waisserver pid $SERVER_PID on 127.0.0.1:$PORT (stop: $(dirname "$0")/stop.sh $DIR)"
