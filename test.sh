#!/usr/bin/env bash
# The whole test suite: formatting, vet, every test with the race detector,
# and a short run of every fuzz target. It installs what the tests need.
#
#   ./test.sh               everything
#   FUZZTIME=60s ./test.sh  longer fuzzing (default 10s per target)
#   FUZZTIME=0 ./test.sh    no fuzzing
set -euo pipefail
cd "$(dirname "$0")"

step() { printf '\n== %s\n' "$*"; }

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
    echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

step "go vet"
go vet ./...

step "go test -race"
go test -race -count=1 ./...

fuzztime=${FUZZTIME:-10s}
if [ "$fuzztime" != "0" ]; then
    step "fuzz ($fuzztime per target)"
    for pkg in $(go list ./...); do
        for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
            echo "-- $pkg $target"
            if ! out=$(go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg" 2>&1); then
                echo "$out"; exit 1
            fi
        done
    done
fi

step "ok"
