#!/bin/bash
# start-rlogin.sh [DIR] : rsh-redone's in.rlogind (RFC 1282) on 127.0.0.1:$RLOGIN_PORT
# (default 5130 or the next free port; 513 is the standard one).
#
# in.rlogind is an inetd-style server: socat listens and, per connection,
# execs it with the TCP socket as stdin/stdout ("nofork"), as inetd would.
# rlogind refuses clients whose source port is not privileged (512-1023),
# so the tests must run as root. It authenticates with PAM (service
# "rlogin": pam_rhosts, then pam_unix, which asks for the password over
# the connection) and then runs /bin/login -f, which starts the account's
# shell (/bin/sh) on a pty.
#
# Accounts: a system user $RLOGIN_USER (default urlkit-rlogin) with password
# $RLOGIN_PASS (default secret) and /bin/sh; its ~/.rhosts trusts the remote
# user $RLOGIN_TRUSTED (default rtrusted) from localhost / 127.0.0.1, which
# therefore logs in without a password. The user is created once and kept
# (useradd; a test machine only: it is reachable on loopback only while the
# server runs). Server-side log: DIR/rlogind.log (RLOGIN_LOG) holds rlogind's
# and login's messages (syslog is not running: they go to stderr via socat).
#
# stdout: RLOGIN_PID= RLOGIN_PORT= RLOGIN_DIR= RLOGIN_USER= RLOGIN_PASS= RLOGIN_TRUSTED= RLOGIN_LOG=; also DIR/env.
# stop:   ./stop.sh DIR
set -u
SCRIPT_NAME=start-rlogin.sh
. "$(dirname "$0")/lib.sh"

RUSER=${RLOGIN_USER:-urlkit-rlogin}
RPASS=${RLOGIN_PASS:-secret}
RTRUST=${RLOGIN_TRUSTED:-rtrusted}

need_pkg rsh-redone-server socat
# The package registers in.rlogind and in.rshd with inetd (ports 513 and
# 514, every interface); the tests want rlogind on loopback only, under
# socat: keep those inetd entries off in case an inetd is (or gets) installed.
for svc in login shell; do
    if command -v update-inetd >/dev/null 2>&1 && grep -q "^$svc[[:space:]]" /etc/inetd.conf 2>/dev/null; then
        update-inetd --disable "$svc" >&2 2>/dev/null || log "could not disable the inetd entry for $svc"
    fi
done
DIR=$(make_dir "${1:-}")
PORT=$(pick_port RLOGIN_PORT 5130) || exit 1
port_busy "$PORT" && die "127.0.0.1:$PORT is already in use (set RLOGIN_PORT)"
RLOGIND=/usr/sbin/in.rlogind
[ -x "$RLOGIND" ] || die "$RLOGIND missing"
[ "$(id -u)" -eq 0 ] || die "needs root (creates the test account; rlogind runs login)"

if ! id "$RUSER" >/dev/null 2>&1; then
    useradd -m -s /bin/sh "$RUSER" || die "useradd $RUSER failed"
fi
echo "$RUSER:$RPASS" | chpasswd || die "chpasswd failed"
HOMEDIR=$(getent passwd "$RUSER" | cut -d: -f6)
printf 'localhost %s\n127.0.0.1 %s\n' "$RTRUST" "$RTRUST" >"$HOMEDIR/.rhosts"
chown "$RUSER" "$HOMEDIR/.rhosts"
chmod 600 "$HOMEDIR/.rhosts"
touch "$HOMEDIR/.hushlogin"   # no motd, no last-login line: a stable transcript
chown "$RUSER" "$HOMEDIR/.hushlogin"

start_bg "$DIR" rlogind socat "TCP-LISTEN:$PORT,bind=127.0.0.1,reuseaddr,fork" \
    "EXEC:$RLOGIND,nofork"
wait_port "$SERVER_PID" "$PORT" 10 || fail_start "$DIR" rlogind

START_OK=1
cat <<EOF | tee "$DIR/env"
RLOGIN_PID=$SERVER_PID
RLOGIN_PORT=$PORT
RLOGIN_DIR=$DIR
RLOGIN_USER=$RUSER
RLOGIN_PASS=$RPASS
RLOGIN_TRUSTED=$RTRUST
RLOGIN_LOG=$DIR/rlogind.log
EOF
log "socat+in.rlogind pid $SERVER_PID listening on 127.0.0.1:$PORT (stop: $(dirname "$0")/stop.sh $DIR)"
