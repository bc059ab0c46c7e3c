#!/usr/bin/env bash
# The whole test suite: formatting, vet, staticcheck, every test with the race detector,
# and a short run of every fuzz target. It installs what the tests need.
#
#   ./test.sh                 everything
#   FUZZ_BUDGET=30m ./test.sh longer fuzzing: the time all fuzz targets share
#                             (default 5m)
#   FUZZTIME=60s ./test.sh    every fuzz target for 60s instead
#   FUZZTIME=0 ./test.sh      no fuzzing
#   SERVERS=0 ./test.sh     no real servers (their tests skip)
#
# The protocol tests talk to real servers from Debian's packages (ProFTPD,
# pygopherd, Gophernicus, nginx, INN, aiosmtpd, Exim, inetutils telnetd,
# Hercules, rsh-redone rlogind), which
# scripts/with-servers.sh installs with apt-get on first use, starts on
# 127.0.0.1 and stops afterwards, and to two servers Debian lacks
# (freeWAIS-sf, Prospero), which their start scripts build once from
# ../shared/servers/src (gcc; cached under ~/.cache/urlkit-test-servers,
# about a minute the first time). That needs root, as CI has.
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
# The library, the tool and their tests build on the other systems too.
for goos in freebsd darwin windows; do
    GOOS=$goos go vet ./... || { echo "go vet fails for GOOS=$goos"; exit 1; }
done

# staticcheck, pinned (from the Go module proxy; go.mod is not touched):
# the dead code and the dropped results that go vet does not look for.
step "staticcheck"
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

# need PKG...: Debian packages the tests need, when root can install
# them; a fresh machine may have no package lists yet, so a failed install
# is tried again after apt-get update.
need() {
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || return 0
    local apt=(env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@")
    "${apt[@]}" >/dev/null 2>&1 || { apt-get update -q >/dev/null && "${apt[@]}" >/dev/null; }
}

# The session tests on a real terminal (cmd/urlkit TestSessionOnTerminal,
# TestTN3270OnTerminal) drive urlkit in a tmux pane; a tn3270 URL on a
# terminal is handed to c3270 when it is installed.
command -v tmux >/dev/null || need tmux
command -v c3270 >/dev/null || need c3270

# The gateway's real-browser tests (gateway/browser_test.go) drive Debian's
# chromium, headless; with the servers required they fail without it.
command -v chromium >/dev/null || need chromium

# edit's differential test against libcurl's URL API builds a small C
# helper (cmd/urlkit/testdata/libcurl): it needs a C compiler and libcurl's
# headers, installed here when missing; once they are there, the test must
# run (it skips only where they are absent).
echo '#include <curl/curl.h>' | cc -E - >/dev/null 2>&1 || need libcurl4-openssl-dev
if echo '#include <curl/curl.h>' | cc -E - >/dev/null 2>&1; then
    export URLKIT_REQUIRE_LIBCURL=1
else
    echo "note: no C compiler or libcurl headers: the edit/libcurl differential test skips"
fi

# The benchmark data sets of ../shared/bench/urls feed the round-trip and
# net/url differential tests; when they are there, those tests must read
# them (they skip only where the folder is absent).
if [ -d ../shared/bench/urls ]; then
    export URLKIT_REQUIRE_DATA=1
else
    echo "note: ../shared/bench/urls is absent: the tests over the benchmark data sets skip"
fi

# The nested module scale/ (Apache Beam pipelines): its own vet and tests,
# without -race: the race build of Beam's SDK is a second cold build (measured:
# go build -race of urlkit-scale, 500 CPU seconds, 9m53s on the shared 2 cores,
# on top of the ordinary build's ~3 minutes), more than doubling the cost. Its golden tests build urlkit, urlkit-scale
# and Beam's prism job server, and run the pipelines on Prism in-process and
# through the job server on loopback; the Go build and module caches keep
# Beam's cold build (about 3 minutes on 2 cores) to the first run.
step "scale: go vet, go test (Beam pipelines on Prism)"
(cd scale && go vet ./... && go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./... && go test -count=1 ./...)

servers=(ftp gopher gophernicus http nntp smtp smtp-exim wais prospero telnet tn3270 rlogin)
if [ "${SERVERS:-1}" = 0 ]; then
    step "go test -race (no servers: protocol tests skip)"
    go test -race -count=1 ./...
else
    step "go test -race, with real servers: ${servers[*]}"
    FTP_BIG=1 scripts/with-servers.sh "${servers[@]}" -- env URLKIT_REQUIRE_SERVERS=1 go test -race -count=1 ./...
fi

# Every fuzz target of every package, found with go test -list, shares one
# wall-clock budget, FUZZ_BUDGET (default 5m: CI has 90 minutes and the
# whole of ./test.sh under 30 on a fresh machine, which first installs the
# servers and Chromium and builds Beam). Each target gets the time left
# divided among the targets still to run, by weight (the four parser modes
# weigh 2, the others 1), so the time a target's build takes is paid by
# the ones after it and the phase ends close to the budget however many
# targets there are. FUZZTIME=D gives every target D instead (0: no fuzzing).
budget=${FUZZ_BUDGET:-5m}
if [ "${FUZZTIME:-}" != "0" ]; then
    seconds() { # 90s, 8m, 1h, or plain seconds -> seconds
        case "$1" in
            *h) echo $(( ${1%h} * 3600 )) ;; *m) echo $(( ${1%m} * 60 )) ;;
            *s) echo "${1%s}" ;; *) echo "$1" ;;
        esac
    }
    root=$(go list .)
    targets=() # "pkg target weight"
    pkg=
    while read -r line; do
        case "$line" in
            Fuzz*) targets+=("$line") ;;
            "ok "*|"?   "*) # "ok  pkg 0.01s" ends the list of pkg: name its targets
                p=$(awk '{print $2}' <<<"$line")
                for k in "${!targets[@]}"; do
                    [[ "${targets[$k]}" == Fuzz* ]] || continue
                    w=1
                    case "$p ${targets[$k]}" in
                        "$root FuzzParseRFC1738"|"$root FuzzParseRFC1630"|"$root FuzzParseRFC3986"|"$root FuzzParseLenient") w=2 ;;
                    esac
                    targets[$k]="$p ${targets[$k]} $w"
                done ;;
        esac
    done < <(go test -list '^Fuzz' ./... 2>&1; cd scale && go test -list '^Fuzz' ./... 2>&1)
    total_weight=0
    for t in "${targets[@]}"; do total_weight=$(( total_weight + ${t##* } )); done
    if [ -n "${FUZZTIME:-}" ]; then
        step "fuzz (${#targets[@]} targets, $FUZZTIME each)"
    else
        step "fuzz (${#targets[@]} targets in $budget)"
    fi
    deadline=$(( $(date +%s) + $(seconds "$budget") ))
    left_weight=$total_weight
    failed=()
    for t in "${targets[@]}"; do
        read -r pkg target w <<<"$t"
        [ -n "${w:-}" ] || { echo "go test -list gave a fuzz target without its package: $t"; exit 1; }
        if [ -n "${FUZZTIME:-}" ]; then
            ft=$FUZZTIME
        else
            left=$(( deadline - $(date +%s) ))
            ft=$(( left * w / left_weight ))
            [ "$ft" -lt 3 ] && ft=3 # a run shorter than this only builds
            ft=${ft}s
        fi
        left_weight=$(( left_weight - w ))
        echo "-- $pkg $target ($ft)"
        dir=. # the nested module's packages are tested from their module
        [[ "$pkg" == "$root/scale/"* ]] && dir=scale
        if ! out=$(cd "$dir" && go test -run '^$' -fuzz "^${target}\$" -fuzztime "$ft" "$pkg" 2>&1); then
            # The fuzzing engine sometimes reports its own deadline
            # ("context deadline exceeded") when -fuzztime ends while it
            # minimizes a new interesting input; a real failure always
            # writes the failing input to testdata/fuzz. (go.dev/issue/75804,
            # a race in the fuzzing coordinator, fixed after Go 1.26.)
            if ! grep -q "Failing input written" <<<"$out" && grep -q "context deadline exceeded" <<<"$out"; then
                echo "   (the fuzzing engine hit its own deadline; no failing input)"
                continue
            fi
            # the other targets still run: one CI run names every failure
            echo "$out"; failed+=("$pkg $target")
        fi
    done
    if [ ${#failed[@]} -gt 0 ]; then
        echo; echo "fuzz targets that failed: ${#failed[@]}"; printf '  %s\n' "${failed[@]}"; exit 1
    fi
fi

step "ok"
