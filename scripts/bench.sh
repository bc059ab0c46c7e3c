#!/bin/bash
# bench.sh [RUNS] : every performance comparison of issue 15, side by side, as
# one table of medians over RUNS rounds (default 5).
#
#   scripts/bench.sh            # parser ratios and CLI figures
#   scripts/bench.sh 3
#
# Parser: `go test -bench` of BenchmarkParse, BenchmarkParseString and
# BenchmarkResolve, one round per run (urlkit and net/url alternate inside each
# round, in one process); the ratio is urlkit's time per URL over net/url's
# (lower is faster), per file.
#
# CLI: a million web URLs (kasztp.txt and userbait.txt of ../shared/bench/urls,
# repeated) through `urlkit parse --json` (beside it net/url.Parse +
# encoding/json, scripts/netjson.go, what a Go programmer would write
# instead; trurl, the other, is not in Debian 12), `parse` (its text
# output, for people), `check`, `normalize --mode rfc3986`,
# and `urlkit extract` over 50 MB of the machine's documentation
# (/usr/share/doc, ten passes timed as one; beside it GNU grep -oE for
# scheme://..., the tool a user would pick): CPU seconds (user+sys, GNU time) with -j 1, so that the
# figure is per core and does not depend on the machine's other load; and the
# CPU of -j 2 over that of -j 1 (the parallel overhead: 1.0 is none).
# Cores: every streaming command on ten million lines, wall time of -j 1
# over that of -j 2 (the issue's 2-core factor), beside the same for two
# -j 1 processes run at once on the two halves of the input: what the
# machine gives two independent processes, the factor's ceiling here; and
# the largest maximum resident set of the -j 2 runs (GNU time). The
# lines: the web URLs for parse --json, check, normalize and relative (to
# one base); the references of resolve_pairs.tsv, repeated, for resolve
# (against RFC 3986's example base); each web URL paired with itself for
# equal; and the web URLs as 20 files for extract.
# `urlkit get` against curl is scripts/bench-get.sh (it needs the servers).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
RUNS=${1:-5}
DATA=${URLKIT_BENCH_DIR:-$ROOT/../shared/bench/urls}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

command -v /usr/bin/time >/dev/null || { echo "bench.sh: needs GNU time (apt-get install -y time)" >&2; exit 2; }
cd "$ROOT"
# Built as README installs it (a static binary, CGO_ENABLED=0).
export CGO_ENABLED=0
go build -o "$TMP/urlkit" ./cmd/urlkit
go build -o "$TMP/netjson" scripts/netjson.go

# The inputs.
cat "$DATA/kasztp.txt" "$DATA/userbait.txt" | sed 's/^\xef\xbb\xbf//; s/\r$//' | grep -v '^$' > "$TMP/web.txt"
: > "$TMP/1m.txt"; : > "$TMP/doc.txt"
while [ "$(wc -l < "$TMP/1m.txt")" -lt 1000000 ]; do cat "$TMP/web.txt" >> "$TMP/1m.txt"; done
head -n 1000000 "$TMP/1m.txt" > "$TMP/urls" && mv "$TMP/urls" "$TMP/1m.txt"
for i in 1 2 3 4 5 6 7 8 9 10; do cat "$TMP/1m.txt"; done > "$TMP/10m.txt"
head -n 5000000 "$TMP/10m.txt" > "$TMP/10m.a"; tail -n +5000001 "$TMP/10m.txt" > "$TMP/10m.b"
# resolve's references and equal's pairs, ten million lines each.
cut -f2 "$DATA/resolve_pairs.tsv" | sed 's/\r$//' > "$TMP/refs.once"
: > "$TMP/refs10m.txt"
while [ "$(wc -l < "$TMP/refs10m.txt")" -lt 10000000 ]; do cat "$TMP/refs.once" "$TMP/refs.once" "$TMP/refs.once" "$TMP/refs.once" >> "$TMP/refs10m.txt"; done
head -n 10000000 "$TMP/refs10m.txt" > "$TMP/refs" && mv "$TMP/refs" "$TMP/refs10m.txt"
paste "$TMP/10m.txt" "$TMP/10m.txt" > "$TMP/pairs10m.txt"
for f in refs10m pairs10m; do
    head -n 5000000 "$TMP/$f.txt" > "$TMP/$f.a"; tail -n +5000001 "$TMP/$f.txt" > "$TMP/$f.b"
done
# The same as 20 files, for extract -j over files (its halves: 10 each).
mkdir "$TMP/parts" && split -n l/20 -d "$TMP/10m.txt" "$TMP/parts/"
sync # the files' write-back is not to run beside the timings
find /usr/share/doc /usr/share/common-licenses -type f ! -name '*.gz' -size -2M 2>/dev/null | sort |
    xargs cat 2>/dev/null | head -c $((50 << 20)) > "$TMP/doc.once"
while [ "$(stat -c %s "$TMP/doc.txt")" -lt $((50 << 20)) ]; do cat "$TMP/doc.once" >> "$TMP/doc.txt"; done
head -c $((50 << 20)) "$TMP/doc.txt" > "$TMP/doc50" && mv "$TMP/doc50" "$TMP/doc.txt"

# cpu CMD... : user+sys seconds of one run, output discarded.
cpu() {
    /usr/bin/time -f '%U %S' -o "$TMP/t" "$@" > /dev/null 2>&1 || true
    tail -n 1 "$TMP/t" | awk '{printf "%.3f\n", $1 + $2}'
}

# on IN PART CMD... : CMD on the input IN, output discarded: $TMP/IN.txt
# as standard input (PART whole) or one of its halves $TMP/IN.a and .b
# (PART a, b); IN files is the 20 files as arguments (halves: 10 each).
on() {
    local in=$1 part=$2; shift 2
    case $in:$part in
    files:whole) "$@" "$TMP"/parts/* ;;
    files:a) "$@" "$TMP"/parts/0* ;;
    files:b) "$@" "$TMP"/parts/1* ;;
    *:whole) "$@" < "$TMP/$in.txt" ;;
    *) "$@" < "$TMP/$in.$part" ;;
    esac > /dev/null 2>&1 || true
}
# wall IN CMD... : wall seconds of one run of CMD on IN; its maximum
# resident set (KiB) is left in $TMP/rss.
wall() {
    local in=$1 t0 t1; shift
    t0=$(date +%s.%N); on "$in" whole /usr/bin/time -f %M -o "$TMP/rss" "$@"; t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{printf "%.3f\n", $2 - $1}'
}
# halves IN CMD... : wall seconds of two -j 1 runs of CMD at once, one
# per half of IN.
halves() {
    local in=$1 t0 t1; shift
    t0=$(date +%s.%N)
    on "$in" a "$@" -j 1 &
    on "$in" b "$@" -j 1
    wait; t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{printf "%.3f\n", $2 - $1}'
}

for run in $(seq "$RUNS"); do
    # input|command; the table names a command without its base URL.
    for spec in "files|extract" "10m|parse --json" "10m|check" "10m|normalize --mode rfc3986" \
        "refs10m|resolve http://a/b/c/d;p?q" "10m|relative https://www.example.com/docs/guide/index.html" "pairs10m|equal"; do
        in=${spec%%|*}
        read -ra cmd <<< "${spec#*|}" # words, with no pattern expanded (the "?" of a base)
        name=${spec#*|}; name=${name%% http*}; name=${name// /_}
        if [ "$in" = files ]; then name="${name}_(20_files)"; fi
        # Every other run in the other order, so that a drift of the
        # machine's speed during a run favours neither.
        if [ $((run % 2)) = 1 ]; then
            one=$(wall "$in" "$TMP/urlkit" "${cmd[@]}" -j 1); two=$(wall "$in" "$TMP/urlkit" "${cmd[@]}" -j 2); rss=$(tail -n 1 "$TMP/rss"); half=$(halves "$in" "$TMP/urlkit" "${cmd[@]}")
        else
            half=$(halves "$in" "$TMP/urlkit" "${cmd[@]}"); two=$(wall "$in" "$TMP/urlkit" "${cmd[@]}" -j 2); rss=$(tail -n 1 "$TMP/rss"); one=$(wall "$in" "$TMP/urlkit" "${cmd[@]}" -j 1)
        fi
        echo "$name $one $two $half $rss" >> "$TMP/cores"
    done
    go test -run '^$' -bench 'BenchmarkParse$|BenchmarkParseString$|BenchmarkResolve$' -benchtime 1s -count 1 . >> "$TMP/gobench" 2>&1
    for j in 1 2; do
        echo "parse_json $j $(cpu "$TMP/urlkit" parse --json -j $j < "$TMP/1m.txt")" >> "$TMP/cli"
        echo "parse_text $j $(cpu "$TMP/urlkit" parse -j $j < "$TMP/1m.txt")" >> "$TMP/cli"
        echo "check $j $(cpu "$TMP/urlkit" check -j $j < "$TMP/1m.txt")" >> "$TMP/cli"
        echo "normalize_rfc3986 $j $(cpu "$TMP/urlkit" normalize --mode rfc3986 -j $j < "$TMP/1m.txt")" >> "$TMP/cli"
    done
    # What a Go programmer would write instead of parse --json:
    # net/url.Parse and encoding/json (scripts/netjson.go).
    echo "netjson 1 $(cpu "$TMP/netjson" < "$TMP/1m.txt")" >> "$TMP/cli"
    # Ten passes in one timing: one pass is about 0.05 s, five steps of
    # GNU time's 10 ms clock.
    echo "extract 1 $(cpu sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do "$0" extract -j 1 < "$1"; done' "$TMP/urlkit" "$TMP/doc.txt")" >> "$TMP/cli"
    # What a user would pick instead: GNU grep for scheme://..., in the C
    # locale (its fastest), the same ten passes, -a as the documentation
    # holds a few binary bytes. Its output goes to /dev/zero, which
    # discards it as /dev/null does: GNU grep stops at the first match
    # when its output is /dev/null, or when it reads a binary file.
    echo "grep 1 $(cpu sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do LC_ALL=C grep -aoE "[A-Za-z][A-Za-z0-9+.-]*://[^][:space:]<>\"]+" "$0" > /dev/zero; done' "$TMP/doc.txt")" >> "$TMP/cli"
done

python3 - "$TMP/gobench" "$TMP/cli" "$TMP/cores" <<'EOF'
import re, statistics, sys
gobench, cli, cores = sys.argv[1], sys.argv[2], sys.argv[3]
med = statistics.median
ns = {}
for line in open(gobench):
    m = re.match(r'Benchmark(\w+)/([^/]+)/(\S+?)-\d+\s+\d+\s+\d+ ns/op.*?([\d.]+) ns/(url|pair)', line)
    if m:
        ns.setdefault((m[1], m[2], m[3]), []).append(float(m[4]))
print(f"| what | compared with | data | runs | median |")
print(f"| --- | --- | --- | --- | --- |")
files = sorted({k[1] for k in ns if k[0] == 'Parse'})
for mode in ('rfc1738', 'rfc3986', 'lenient', 'whatwg'):
    for f in files:
        a, b = ns.get(('Parse', f, 'urlkit-' + mode)), ns.get(('Parse', f, 'net-url'))
        if a and b:
            r = [x / y for x, y in zip(a, b)]
            print(f"| parse, {mode} mode | net/url.Parse (time per URL) | {f}.txt | {len(r)} | {med(r):.2f} |")
for mode in ('rfc1738', 'rfc3986'):
    for f in files:
        a, b = ns.get(('ParseString', f, 'urlkit-' + mode)), ns.get(('ParseString', f, 'net-url'))
        if a and b:
            r = [x / y for x, y in zip(a, b)]
            print(f"| parse + String, {mode} mode | net/url.Parse + String (time per URL) | {f}.txt | {len(r)} | {med(r):.2f} |")
for kind, ref in (('parsed', 'net-url+String'), ('text', 'net-url')):
    a, b = ns.get(('Resolve', kind, 'urlkit-rfc3986')), ns.get(('Resolve', kind, ref))
    if a and b:
        r = [x / y for x, y in zip(a, b)]
        print(f"| resolve ({kind}), rfc3986 | {ref} (time per pair) | resolve_pairs.tsv | {len(r)} | {med(r):.2f} |")
c = {}
for line in open(cli):
    name, j, s = line.split()
    c.setdefault((name, j), []).append(float(s))
for name, unit, n in (('parse_json', 'URLs/s', 1e6), ('parse_text', 'URLs/s', 1e6), ('check', 'URLs/s', 1e6), ('normalize_rfc3986', 'URLs/s', 1e6), ('extract', 'MB/s', 10 * 50 * 2**20 / 1e6)):
    one = c.get((name, '1'))
    if not one:
        continue
    cmd = name.replace('_json', ' --json').replace('_text', ' (text output)').replace('_rfc3986', ' --mode rfc3986')
    data = '50 MB of /usr/share/doc' if name == 'extract' else '1M web URLs'
    label = cmd if name == 'extract' else cmd + ', -j 1'
    print(f"| urlkit {label} | per CPU second (user+sys) | {data} | {len(one)} | {n / med(one):,.0f} {unit} |")
    two = c.get((name, '2'))
    if two:
        r = [y / x for x, y in zip(one, two)]
        print(f"| urlkit {cmd}, CPU of -j 2 | CPU of -j 1 (1.00: no overhead) | {data} | {len(r)} | {med(r):.2f} |")
pj, nj = c.get(('parse_json', '1')), c.get(('netjson', '1'))
if pj and nj:
    print(f"| net/url.Parse + encoding/json (scripts/netjson.go) | per CPU second (user+sys) | 1M web URLs | {len(nj)} | {1e6 / med(nj):,.0f} URLs/s |")
    r = [n / u for u, n in zip(pj, nj)]
    print(f"| urlkit parse --json over net/url + encoding/json | throughput ratio (higher: urlkit faster) | 1M web URLs | {len(r)} | {med(r):.2f} |")
ex, gr = c.get(('extract', '1')), c.get(('grep', '1'))
if ex and gr:
    n = 10 * 50 * 2**20 / 1e6
    print(f"| GNU grep -aoE 'scheme://...' (LC_ALL=C) | per CPU second (user+sys) | 50 MB of /usr/share/doc | {len(gr)} | {n / med(gr):,.0f} MB/s |")
    r = [g / e for e, g in zip(ex, gr)]
    print(f"| urlkit extract over grep -aoE | throughput ratio (higher: urlkit faster) | 50 MB of /usr/share/doc | {len(r)} | {med(r):.2f} |")
w = {}
for line in open(cores):
    name, one, two, halves, rss = line.split()
    w.setdefault(name, []).append((float(one), float(two), float(halves), int(rss)))
data = {'extract_(20_files)': '10M web URLs in 20 files', 'resolve': '10M references (resolve_pairs.tsv)',
        'relative': '10M web URLs, one base', 'equal': '10M pairs (web URL, itself)'}
for name, runs in w.items():
    cmd = name.replace('_', ' ')
    d = data.get(name, '10M web URLs')
    r = [one / two for one, two, _, _ in runs]
    h = [one / halves for one, _, halves, _ in runs]
    print(f"| urlkit {cmd}, -j 2 over -j 1 (2-core factor) | wall time of -j 1 | {d} | {len(r)} | {med(r):.2f} |")
    print(f"| two urlkit {cmd} -j 1 at once, on the two halves | wall time of -j 1 on the whole (the machine's factor) | {d} | {len(h)} | {med(h):.2f} |")
    print(f"| urlkit {cmd}, -j 2: memory | the largest maximum resident set of the runs (goal: under 64 MB) | {d} | {len(runs)} | {max(m for *_, m in runs) * 1024 / 1e6:.1f} MB |")
EOF

# The WHATWG mode beside the other implementations of the URL Standard
# (issue 40): nlnwa/whatwg-url and Node's new URL() (ada), in a module of
# their own (scripts/whatwgbench), CPU time per URL of each, one run.
echo
(cd "$HERE/whatwgbench" && go run . -dir "$DATA" -rounds "$RUNS")
