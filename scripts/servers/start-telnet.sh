#!/bin/bash
# start-telnet.sh [DIR] : GNU inetutils telnetd on 127.0.0.1:$TELNET_PORT (default 2323).
#
# telnetd is an inetd-style server; socat listens and, per connection, execs
# telnetd with the TCP socket as stdin/stdout ("nofork"), as inetd would.
# telnetd does the real TELNET option negotiation and runs a pty, but instead of
# /bin/login it runs DIR/login.sh (telnetd -E): a fake login that accepts only
# $TELNET_USER/$TELNET_PASS (tester/secret) and then a tiny command loop
# (echo TEXT, whoami, size, term, exit) — no real shell is reachable.
#
# Port: $TELNET_PORT if set (must be free), else the first free port from 2323 up.
# Server-side log: DIR/session.log (TELNET_LOG) gets one line per event of the
# fake login ("user NAME", "login ok NAME" / "login failed NAME", "cmd LINE";
# the password is never logged), so tests can check what reached the pty.
#
# Pitfalls (see the shared README): telnetd sends DO TTYPE and more and waits
# for the answers before it runs the login program; in non-binary mode a CR LF
# from the client is one line end, in binary mode it is two.
#
# stdout: TELNET_PID= TELNET_PORT= TELNET_DIR= TELNET_USER= TELNET_PASS= TELNET_LOG=; also DIR/env.
# stop:   ./stop.sh DIR    (kills socat's process group, i.e. open sessions too)
set -u
SCRIPT_NAME=start-telnet.sh
. "$(dirname "$0")/lib.sh"

TUSER=${TELNET_USER:-tester}
TPASS=${TELNET_PASS:-secret}

need_pkg inetutils-telnetd socat
DIR=$(make_dir "${1:-}")
PORT=$(pick_port TELNET_PORT 2323) || exit 1
port_busy "$PORT" && die "127.0.0.1:$PORT is already in use (set TELNET_PORT)"
TELNETD=/usr/sbin/telnetd
[ -x "$TELNETD" ] || die "$TELNETD missing"
LOGF="$DIR/session.log"
: >"$LOGF"
chmod 666 "$LOGF"

cat >"$DIR/login.sh" <<EOF
#!/bin/bash
# fake login run by telnetd -E on the session's pty
log() { printf '%s\n' "\$*" >>'$LOGF'; }
printf 'Test telnet server (fake login)\n'
printf 'login: '; IFS= read -r u || exit 1
u=\${u%\$'\r'}
log "user \$u"
# echo off before the prompt, as login(1) does: a password typed ahead
# right after the prompt must not be echoed
stty -echo 2>/dev/null; printf 'Password: '; IFS= read -r p; stty echo 2>/dev/null; printf '\n'
p=\${p%\$'\r'}
if [ "\$u" != '$TUSER' ] || [ "\$p" != '$TPASS' ]; then log "login failed \$u"; printf 'Login incorrect\n'; sleep 1; exit 1; fi
log "login ok \$u"
printf 'Welcome, %s.\n' "\$u"
while printf '\$ ' && IFS= read -r line; do
    line=\${line%\$'\r'}
    log "cmd \$line"
    case "\$line" in
        # a moment before the exit: telnetd drops what the pty still
        # holds when the shell is gone, typed-ahead commands' output too
        exit|logout|quit) printf 'bye\n'; sleep 0.5; exit 0 ;;
        "echo "*) printf '%s\n' "\${line#echo }" ;;
        whoami) printf '%s\n' "\$u" ;;
        size) printf 'size %s\n' "\$(stty size 2>&1)" ;;
        term) printf 'term %s\n' "\${TERM:-unset}" ;;
        "") ;;
        *) printf 'unknown command: %s\n' "\$line" ;;
    esac
done
EOF
chmod 755 "$DIR/login.sh"
chmod 755 "$DIR"

start_bg "$DIR" telnetd socat "TCP-LISTEN:$PORT,bind=127.0.0.1,reuseaddr,fork" \
    "EXEC:$TELNETD -h -E $DIR/login.sh,nofork"
wait_port "$SERVER_PID" "$PORT" 10 || fail_start "$DIR" telnetd

START_OK=1
cat <<EOF | tee "$DIR/env"
TELNET_PID=$SERVER_PID
TELNET_PORT=$PORT
TELNET_DIR=$DIR
TELNET_USER=$TUSER
TELNET_PASS=$TPASS
TELNET_LOG=$LOGF
EOF
log "socat+telnetd pid $SERVER_PID listening on 127.0.0.1:$PORT (stop: $(dirname "$0")/stop.sh $DIR)"
