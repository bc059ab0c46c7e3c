#!/bin/bash
# with-servers.sh NAME... -- CMD [ARG...]
#
# Start the named test servers (NAME is any scripts/servers/start-NAME.sh: ftp,
# gopher, gophernicus, http, nntp, smtp, smtp-exim, wais, prospero, ...), each
# in a fresh mktemp work dir, export the KEY=VALUE lines they print
# (FTP_PORT=..., GOPHER_PORT=..., ...), run CMD, then stop every server that
# was started (always: EXIT/INT/TERM trap, by recorded PID only) and exit with
# CMD's status. If a server fails to start, the ones already started are
# stopped and the exit status is 1 without running CMD.
#
#   scripts/with-servers.sh ftp gopher gophernicus -- \
#       env URLKIT_REQUIRE_SERVERS=1 go test -race ./internal/... ./client/...
#
# The work dirs (content, configs, server logs) are removed after a clean stop;
# set KEEP_SERVER_DIRS=1 to keep them for inspection (their paths go to stderr).
# Needs root (apt-get install on first use, daemons that drop privileges).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SERVERS="$HERE/servers"
SCRIPT_NAME=with-servers.sh

known() { (cd "$SERVERS" && ls start-*.sh) | sed 's/^start-//; s/\.sh$//' | tr '
' ' '; }
usage() { echo "usage: $0 NAME... -- CMD [ARG...]   (NAME: $(known))" >&2; exit 2; }

names=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do names+=("$1"); shift; done
[ "${1:-}" = "--" ] || usage
shift
[ $# -gt 0 ] || usage
[ ${#names[@]} -gt 0 ] || usage
for n in "${names[@]}"; do
    [ -x "$SERVERS/start-$n.sh" ] || { echo "$SCRIPT_NAME: unknown server '$n'" >&2; usage; }
done

dirs=()
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    if [ ${#dirs[@]} -gt 0 ]; then
        if "$SERVERS/stop.sh" "${dirs[@]}"; then
            if [ "${KEEP_SERVER_DIRS:-0}" = 1 ]; then
                echo "$SCRIPT_NAME: kept ${dirs[*]}" >&2
            else
                rm -rf "${dirs[@]}"
            fi
        else
            echo "$SCRIPT_NAME: some servers did not stop; left ${dirs[*]}" >&2
            [ $rc -eq 0 ] && rc=1
        fi
    fi
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for n in "${names[@]}"; do
    dir=$(mktemp -d "${TMPDIR:-/tmp}/urlkit-$n.XXXXXX") || exit 1
    chmod 755 "$dir"
    dirs+=("$dir")
    if ! out=$("$SERVERS/start-$n.sh" "$dir"); then
        echo "$SCRIPT_NAME: $n did not start" >&2
        exit 1
    fi
    while IFS= read -r line; do
        case "$line" in
            [A-Z]*=*) export "$line" ;;
        esac
    done <<<"$out"
done

"$@"
exit $?
