#!/usr/bin/env bash
# The whole test suite: formatting, vet, every test with the race detector,
# and a short run of every fuzz target. It installs what the tests need.
#
#   ./test.sh               everything
#   FUZZTIME=60s ./test.sh  longer fuzzing (default 10s per target, 20s for
#                           the parser modes: FUZZTIME_PARSER)
#   FUZZTIME=0 ./test.sh    no fuzzing
#   SERVERS=0 ./test.sh     no real servers (their tests skip)
#
# The protocol tests talk to real servers from Debian's packages (ProFTPD,
# pygopherd, Gophernicus, nginx, INN, aiosmtpd, Exim), which scripts/with-servers.sh installs
# with apt-get on first use, starts on 127.0.0.1 and stops afterwards. That
# needs root, as CI has.
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

# The benchmark data sets of ../shared/bench/urls feed the round-trip and
# net/url differential tests; when they are there, those tests must read
# them (they skip only where the folder is absent).
if [ -d ../shared/bench/urls ]; then
    export URLKIT_REQUIRE_DATA=1
else
    echo "note: ../shared/bench/urls is absent: the tests over the benchmark data sets skip"
fi

servers=(ftp gopher gophernicus http nntp smtp smtp-exim)
if [ "${SERVERS:-1}" = 0 ]; then
    step "go test -race (no servers: protocol tests skip)"
    go test -race -count=1 ./...
else
    step "go test -race, with real servers: ${servers[*]}"
    FTP_BIG=1 scripts/with-servers.sh "${servers[@]}" -- env URLKIT_REQUIRE_SERVERS=1 go test -race -count=1 ./...
fi

# Every fuzz target of every package, found with go test -list. The four
# parser modes get FUZZTIME_PARSER (20s), the others FUZZTIME (10s).
fuzztime=${FUZZTIME:-10s}
parsertime=${FUZZTIME_PARSER:-20s}
[ "$fuzztime" = "0" ] && parsertime=0
if [ "$fuzztime" != "0" ]; then
    step "fuzz ($parsertime per parser mode, $fuzztime per other target)"
    root=$(go list .)
    for pkg in $(go list ./...); do
        for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
            t=$fuzztime
            case "$pkg $target" in
                "$root FuzzParseRFC1738"|"$root FuzzParseRFC1630"|"$root FuzzParseRFC3986"|"$root FuzzParseLenient") t=$parsertime ;;
            esac
            echo "-- $pkg $target ($t)"
            if ! out=$(go test -run '^$' -fuzz "^${target}\$" -fuzztime "$t" "$pkg" 2>&1); then
                # The fuzzing engine sometimes reports its own deadline
                # ("context deadline exceeded") when -fuzztime ends while it
                # minimizes a new interesting input; a real failure always
                # writes the failing input to testdata/fuzz. (go.dev/issue/75804,
                # a race in the fuzzing coordinator, fixed after Go 1.26.)
                if ! grep -q "Failing input written" <<<"$out" && grep -q "context deadline exceeded" <<<"$out"; then
                    echo "   (the fuzzing engine hit its own deadline; no failing input)"
                    continue
                fi
                echo "$out"; exit 1
            fi
        done
    done
fi

step "ok"
