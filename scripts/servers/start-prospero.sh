#!/bin/bash
# start-prospero.sh [DIR] : a real Prospero directory server (USC/ISI Prospero
# Alpha.5.2a dirsrv: protocol version 5 over ARDP on UDP, the system behind
# RFC 1738's prospero: URLs) on UDP 127.0.0.1:$PROSPERO_PORT.
#
# Debian has no Prospero, so it is built from the upstream subset and the
# Linux patch in $(server_src) (../shared/servers/src; see its README.md for
# origin and licence) with gcc, make and libcrypt (installed on demand). The
# build is cached (build_cached in lib.sh): about 10-30 s once.
#
# Served tree (hsonames are location-independent, AFTP/...):
#   AFTP/pub      native directory: hello.txt ("hello prospero"), README
#                 ("readme"), sub/ (inner.txt "inner"), "it's here.txt"
#                 (a quote and a space in the name), and many/ with
#                 PROSPERO_MANY files (a listing longer than one datagram)
#   AFTP/links    virtual directory: greeting -> AFTP/pub/hello.txt,
#                 readme -> AFTP/pub/README, subdir -> AFTP/pub/sub
# DIRECTORY on a file: FAILURE NOT-A-DIRECTORY; outside the tree: FAILURE
# NOT-AUTHORIZED; garbage gets an ERROR reply.
#
# Port: $PROSPERO_PORT if set (must be free), else the first free UDP port from 1525 up.
# Server-side log: DIR/run/pfs.log (dirsrv -L: one line per request).
# Its own clients are in PROSPERO_BIN (vls needs VSWORK_HOST etc.; see
# ../shared/servers/src/README.md).
#
# stdout: PROSPERO_PID= PROSPERO_PORT= PROSPERO_DIR= PROSPERO_BIN= PROSPERO_LOG=
#         PROSPERO_MANY=; also DIR/env.
# stop:   ./stop.sh DIR
set -u
SCRIPT_NAME=start-prospero.sh
. "$(dirname "$0")/lib.sh"
SRC=$(server_src) || exit 1

need_pkg gcc make patch libc6-dev libcrypt-dev
TOP=$(build_cached prospero "$SRC/prospero-alpha5.2a-min-src.tar.gz" "$SRC/prospero-alpha5.2a-linux.patch" '
    cp Makefile.config.linux Makefile.config &&
    for f in $(find . -name Makefile.in); do cp -p "$f" "${f%.in}"; done &&
    for d in lib/pfs lib/ardp lib/psrv lib/filters server; do make -s -C "$d" || exit 1; done &&
    make -s -C user SUBDIRS= all') || exit 1
DIR=$(make_dir "${1:-}")
PORT=$(pick_udp_port PROSPERO_PORT 1525) || exit 1
udp_busy "$PORT" && die "udp 127.0.0.1:$PORT is already in use (set PROSPERO_PORT)"
MANY=${PROSPERO_MANY:-300}
HOSTPORT="127.0.0.1($PORT)"
RUN=$DIR/run
rm -rf "$RUN"
mkdir -p "$RUN"/{root/pub/sub,root/pub/many,shadow,pfsdat,security}
printf 'hello prospero\n' >"$RUN/root/pub/hello.txt"
printf 'readme\n' >"$RUN/root/pub/README"
printf 'inner\n' >"$RUN/root/pub/sub/inner.txt"
printf 'quoted\n' >"$RUN/root/pub/it's here.txt"
for i in $(seq -w 1 "$MANY"); do printf 'file %s\n' "$i" >"$RUN/root/pub/many/file-$i-with-a-longish-name.txt"; done
mkdir -p "$RUN/shadow$RUN/root/links"
cat >"$RUN/shadow$RUN/root/links/.directory#contents" <<EOT
VERSION 5
INCLUDE-NATIVE NONATIVE
LINK  L FILE greeting INTERNET-D $HOSTPORT ASCII AFTP'/pub/hello.txt' 0
LINK  L FILE readme INTERNET-D $HOSTPORT ASCII AFTP'/pub/README' 0
LINK  L DIRECTORY subdir INTERNET-D $HOSTPORT ASCII AFTP'/pub/sub' 0
EOT
cat >"$RUN/shadow$RUN/root/.directory#contents" <<EOT
VERSION 5
INCLUDE-NATIVE INCLREAL
LINK  L DIRECTORY links INTERNET-D $HOSTPORT ASCII AFTP'/links' 0
EOT

# -m foreground; -p '#N' UDP port; -r exported tree; -f the same tree as the
# "anonymous FTP" area (hsonames AFTP/...); -S/-T/-s shadow, storage, security; -L log.
# PSRV_BIND_ADDR (added by the patch) binds to loopback only.
cd "$RUN"
start_bg "$DIR" dirsrv env PSRV_BIND_ADDR=127.0.0.1 "$TOP/server/dirsrv" -m -p "#$PORT" -h 127.0.0.1 \
    -r "$RUN/root" -f "$RUN/root" -S "$RUN/shadow" -T "$RUN/pfsdat" -s "$RUN/security" -L "$RUN/pfs.log"

# Ready when it answers an ARDP request: a 3-byte header (length 3,
# connection id 0x1092) and "VERSION", sent from bash's connected UDP socket.
ready=0
for _ in $(seq 40); do
    alive "$SERVER_PID" || break
    if exec 3<>"/dev/udp/127.0.0.1/$PORT"; then
        printf '\003\020\222VERSION\n' >&3
        if IFS= read -r -t 0.5 -N 200 reply <&3 || [ -n "${reply:-}" ]; then
            case "$reply" in *VERSION*) ready=1 ;; esac
        fi
        exec 3>&-
    fi
    [ $ready = 1 ] && break
    sleep 0.25
done
[ $ready = 1 ] || fail_start "$DIR" dirsrv

START_OK=1
cat <<EOT | tee "$DIR/env"
PROSPERO_PID=$SERVER_PID
PROSPERO_PORT=$PORT
PROSPERO_DIR=$DIR
PROSPERO_BIN=$TOP/user
PROSPERO_LOG=$RUN/pfs.log
PROSPERO_MANY=$MANY
EOT
log "dirsrv pid $SERVER_PID on udp 127.0.0.1:$PORT (stop: $(dirname "$0")/stop.sh $DIR)"
