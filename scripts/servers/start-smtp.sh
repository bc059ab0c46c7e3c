#!/bin/bash
# start-smtp.sh [DIR] : aiosmtpd (Debian python3-aiosmtpd, an RFC 5321 SMTP server)
# on 127.0.0.1:$SMTP_PORT (default 2525). Accepts any sender/recipient, no AUTH,
# no TLS, and delivers every message into the Maildir DIR/maildir (new/ subdir),
# one file per message, LF line endings, with the envelope added as headers:
#   X-Peer: ('127.0.0.1', PORT)   X-MailFrom: <sender>   X-RcptTo: a@x, b@y
# Set SMTP_UTF8=1 to advertise SMTPUTF8.
#
# Port: $SMTP_PORT if set (must be free), else the first free port from 2525 up.
# Server-side log: DIR/aiosmtpd.log (aiosmtpd's own output); the delivered
# files themselves carry the envelope (X-MailFrom, X-RcptTo).
#
# stdout: SMTP_PID= SMTP_PORT= SMTP_DIR= SMTP_MAILDIR= SMTP_LOG=; also DIR/env.
# stop:   ./stop.sh DIR
set -u
SCRIPT_NAME=start-smtp.sh
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3     # Debian's python3, where python3-aiosmtpd is installed

need_pkg python3-aiosmtpd
DIR=$(make_dir "${1:-}")
PORT=$(pick_port SMTP_PORT 2525) || exit 1
port_busy "$PORT" && die "127.0.0.1:$PORT is already in use (set SMTP_PORT)"

rm -rf "$DIR/maildir"
mkdir -p "$DIR/maildir/new" "$DIR/maildir/cur" "$DIR/maildir/tmp"
extra=()
[ "${SMTP_UTF8:-0}" = 1 ] && extra+=(-u)

# -n: do not setuid to nobody (it could not write DIR then)
start_bg "$DIR" aiosmtpd "$PY" -m aiosmtpd -n "${extra[@]}" -l "127.0.0.1:$PORT" \
    -c aiosmtpd.handlers.Mailbox "$DIR/maildir"
wait_port "$SERVER_PID" "$PORT" 20 || fail_start "$DIR" aiosmtpd

START_OK=1
cat <<EOF | tee "$DIR/env"
SMTP_PID=$SERVER_PID
SMTP_PORT=$PORT
SMTP_DIR=$DIR
SMTP_MAILDIR=$DIR/maildir
SMTP_LOG=$DIR/aiosmtpd.log
EOF
log "aiosmtpd pid $SERVER_PID listening on 127.0.0.1:$PORT, mail -> $DIR/maildir/new (stop: $(dirname "$0")/stop.sh $DIR)"
