#!/bin/bash
# nntp-bench.sh [N] : the figure of issue 11's closing note: time and peak
# memory for client/nntp to list (OVER) a group of N articles (default
# 100000) on INN. Starts INN with NNTP_BIG=N (the group is fed as one
# rnews batch, about 20 s for 100,000 articles here), runs
# TestRealOverviewBigGroup, which logs the figures, and stops INN.
# Not part of ./test.sh: the feed alone takes longer than the whole
# client test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-100000}
NNTP_BIG=$N scripts/with-servers.sh nntp -- \
    go test -run '^TestRealOverviewBigGroup$' -count=1 -v ./client/nntp/
