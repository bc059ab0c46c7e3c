#!/bin/bash
# nntp-bench.sh [N] : the figures of issue 11's closing note: time and peak
# memory to list a group of N articles (default 100000) on INN, for
# client/nntp alone (TestRealOverviewBigGroup, OVER) and for the CLI,
# `urlkit get --nntp HOST:PORT news:local.big` (its output to /dev/null).
# Starts INN with NNTP_BIG=N (the group is fed as one rnews batch, about
# 20 s for 100,000 articles here) and stops it after.
# Not part of ./test.sh: the feed alone takes longer than the whole
# client test suite. Needs GNU time (/usr/bin/time, package time).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-100000}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/urlkit" ./cmd/urlkit
[ -x /usr/bin/time ] || apt-get install -y time >/dev/null
NNTP_BIG=$N scripts/with-servers.sh nntp -- bash -c '
    go test -run "^TestRealOverviewBigGroup$" -count=1 -v ./client/nntp/ &&
    for i in 1 2 3; do
        /usr/bin/time -f "urlkit get news:$NNTP_BIG_GROUP ($NNTP_BIG_COUNT articles): %e s, peak RSS %M KiB" \
            '"$bin"'/urlkit get --nntp 127.0.0.1:$NNTP_PORT news:$NNTP_BIG_GROUP >/dev/null
    done'
