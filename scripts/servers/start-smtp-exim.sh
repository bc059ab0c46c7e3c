#!/bin/bash
# start-smtp-exim.sh [DIR] : Exim 4 (exim4-daemon-light, a real MTA) on
# 127.0.0.1:$EXIM_PORT (default 2526) as a mail sink: any sender, any recipient
# domain, no AUTH, no TLS; every accepted message is delivered at once (-odi) into
# the Maildir DIR/maildir (new/), one file PER RECIPIENT, with
#   Return-path: <sender>   Envelope-to: <recipient>   Delivery-date:   Received:
# Advertises ESMTP SIZE, 8BITMIME, PIPELINING, PIPECONNECT, CHUNKING, SMTPUTF8,
# STARTTLS (a self-signed certificate for "localhost"/127.0.0.1, DIR/tls/cert.pem,
# printed as EXIM_CA so tests can trust it) and, only after STARTTLS, AUTH PLAIN
# for $EXIM_USER/$EXIM_PASS (tester/secret). message_size_limit is 10M.
# Mail to any local part "reject-*" is refused at RCPT with 550, "defer-*" with 451
# (per-recipient failure tests).
# Exim's own logs: DIR/log/mainlog (EXIM_LOG), rejectlog, paniclog.
#
# Port: $EXIM_PORT if set (must be free), else the first free port from 2526 up.
# The env keys are EXIM_* (EXIM_PORT, EXIM_MAILDIR, ...) so that aiosmtpd
# (SMTP_*) and Exim can run side by side.
#
# Besides start-smtp.sh (aiosmtpd). Exim conflicts with other MTAs
# (postfix, opensmtpd); inn2 pulls exim4-daemon-light in anyway when no MTA is present.
#
# stdout: EXIM_PID= EXIM_PORT= EXIM_DIR= EXIM_MAILDIR= EXIM_LOG= EXIM_CA= EXIM_USER= EXIM_PASS=;
#         also DIR/env.
# stop:   ./stop.sh DIR
set -u
SCRIPT_NAME=start-smtp-exim.sh
. "$(dirname "$0")/lib.sh"

AUSER=${EXIM_USER:-tester}
APASS=${EXIM_PASS:-secret}

need_pkg exim4-daemon-light openssl
DIR=$(make_dir "${1:-}")
PORT=$(pick_port EXIM_PORT 2526) || exit 1
port_busy "$PORT" && die "127.0.0.1:$PORT is already in use (set EXIM_PORT)"
EXIM=$(command -v exim4 || command -v exim) || die "exim binary not found"
EUSER=Debian-exim
getent passwd "$EUSER" >/dev/null || die "no $EUSER user (exim4 install incomplete?)"

rm -rf "$DIR/spool" "$DIR/log" "$DIR/maildir" "$DIR/tls"
mkdir -p "$DIR/spool" "$DIR/log" "$DIR/maildir/new" "$DIR/maildir/cur" "$DIR/maildir/tmp" "$DIR/tls"
# self-signed certificate for STARTTLS (tests trust it through EXIM_CA)
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=localhost" \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
    -keyout "$DIR/tls/key.pem" -out "$DIR/tls/cert.pem" >"$DIR/tls/openssl.log" 2>&1 \
    || { cat "$DIR/tls/openssl.log" >&2; die "openssl req failed"; }
chown -R "$EUSER:$EUSER" "$DIR/spool" "$DIR/log" "$DIR/maildir" "$DIR/tls"
chmod 600 "$DIR/tls/key.pem"
chmod 755 "$DIR" "$DIR/maildir"

# Notes: with -C (alternate config) exim drops root before delivery, so deliveries
# run as the exim user; deliveries as root are refused (fixed_never_users).
# File names built from $local_part are "tainted" in exim >= 4.94, so the
# Maildir path is fixed.
cat >"$DIR/exim.conf" <<EOF
primary_hostname = test.invalid
spool_directory = $DIR/spool
log_file_path = $DIR/log/%slog
pid_file_path = $DIR/spool/exim-daemon.pid
daemon_smtp_ports = $PORT
local_interfaces = 127.0.0.1
exim_user = $EUSER
exim_group = $EUSER
never_users =
domainlist local_domains = *
acl_smtp_rcpt = acl_check_rcpt
acl_smtp_data = acl_check_data
host_lookup =
rfc1413_hosts =
tls_advertise_hosts = *
tls_certificate = $DIR/tls/cert.pem
tls_privatekey = $DIR/tls/key.pem
smtp_banner = \$smtp_active_hostname ESMTP Exim \$version_number test sink \$tod_full
message_size_limit = 10M
check_spool_space = 0
begin acl
acl_check_rcpt:
  deny    local_parts = ^reject-.*
          message = 550 no such user here (test refusal)
  defer   local_parts = ^defer-.*
          message = 451 try again later (test deferral)
  accept
acl_check_data:
  accept
begin authenticators
plain:
  driver = plaintext
  public_name = PLAIN
  server_prompts = :
  server_condition = \${if and {{eq{\$auth2}{$AUSER}}{eq{\$auth3}{$APASS}}}}
  server_set_id = \$auth2
  server_advertise_condition = \${if def:tls_in_cipher {yes}{no}}
begin routers
all:
  driver = accept
  transport = to_maildir
begin transports
to_maildir:
  driver = appendfile
  directory = $DIR/maildir
  maildir_format
  create_directory
  user = $EUSER
  group = $EUSER
  mode = 0644
  delivery_date_add
  envelope_to_add
  return_path_add
EOF

"$EXIM" -C "$DIR/exim.conf" -bV >"$DIR/configtest.log" 2>&1 || { cat "$DIR/configtest.log" >&2; die "exim config test failed"; }
# -bdf: daemon in the foreground; -odi: deliver synchronously after acceptance
start_bg "$DIR" exim "$EXIM" -C "$DIR/exim.conf" -bdf -odi
wait_port "$SERVER_PID" "$PORT" 20 || fail_start "$DIR" exim

START_OK=1
cat <<EOF | tee "$DIR/env"
EXIM_PID=$SERVER_PID
EXIM_PORT=$PORT
EXIM_DIR=$DIR
EXIM_MAILDIR=$DIR/maildir
EXIM_LOG=$DIR/log/mainlog
EXIM_CA=$DIR/tls/cert.pem
EXIM_USER=$AUSER
EXIM_PASS=$APASS
EOF
log "exim pid $SERVER_PID listening on 127.0.0.1:$PORT, mail -> $DIR/maildir/new (stop: $(dirname "$0")/stop.sh $DIR)"
