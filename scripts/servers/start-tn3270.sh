#!/bin/bash
# start-tn3270.sh [DIR] : a real TN3270 server: the Hercules S/370 emulator
# (Debian package hercules) with 32 3270 console devices (0010-002F) and
# its TN3270 console port on 127.0.0.1:$TN3270_PORT (default 3270 or the next free).
# Without an operating system Hercules never notices that a client went away:
# each connection keeps its device until the server stops, so 32 devices allow
# 32 sessions per start (the 33rd is shown "Connection rejected, no available
# 3270 device"). No operating system is loaded: a TN3270 client that connects is shown
# Hercules' logo screen (the "Hercules Version ..." banner and a big HHH logo,
# in EBCDIC, model 2 24x80), which is what a test can read.
#
# Port: $TN3270_PORT if set (must be free), else the first free port from 3270 up.
# Server-side log: DIR/hercules.log (TN3270_LOG): Hercules' messages, one
# HHCTE009I line per terminal connection (none for a disconnection).
#
# stdout: TN3270_PID= TN3270_PORT= TN3270_DIR= TN3270_LOG=; also DIR/env.
# stop:   ./stop.sh DIR
set -u
SCRIPT_NAME=start-tn3270.sh
. "$(dirname "$0")/lib.sh"

need_pkg hercules
DIR=$(make_dir "${1:-}")
PORT=$(pick_port TN3270_PORT 3270) || exit 1
port_busy "$PORT" && die "127.0.0.1:$PORT is already in use (set TN3270_PORT)"
cat >"$DIR/hercules.cnf" <<EOT
CPUSERIAL 000001
CPUMODEL 3090
MAINSIZE 16
XPNDSIZE 0
CNSLPORT 127.0.0.1:$PORT
NUMCPU 1
ARCHMODE S/370
PANRATE SLOW
0010.32 3270
EOT
cd "$DIR"
# -d: daemon mode (no panel); logs to DIR/hercules.log
start_bg "$DIR" hercules hercules -f "$DIR/hercules.cnf" -d
# Hercules ignores SIGTERM in daemon mode (it starts a shutdown that never
# ends without a console) but exits at once on SIGHUP: stop.sh runs this first.
echo "kill -HUP $SERVER_PID" >"$DIR/hercules.stopcmd"
wait_port "$SERVER_PID" "$PORT" 20 || fail_start "$DIR" hercules

START_OK=1
cat <<EOT | tee "$DIR/env"
TN3270_PID=$SERVER_PID
TN3270_PORT=$PORT
TN3270_DIR=$DIR
TN3270_LOG=$DIR/hercules.log
EOT
log "hercules pid $SERVER_PID, tn3270 on 127.0.0.1:$PORT (stop: $(dirname "$0")/stop.sh $DIR)"
