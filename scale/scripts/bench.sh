#!/usr/bin/env bash
# The scale figures of the README, measured side by side in one run:
#   extract over 1 GB of text: urlkit-scale extract, against
#     urlkit extract -j 2 | urlkit normalize --mode rfc3986 | sort | uniq -c
#     and urlkit extract -j 2 alone; and, for the floor of the per-URL
#     work, urlkit normalize --mode rfc3986 alone over the URLs urlkit
#     extract finds (extracted once, untimed);
#   hosts over 10 million URLs: urlkit-scale hosts, against
#     urlkit parse --mode rfc3986 --json --fields host -j 2 | sort | uniq -c.
# Each line: wall seconds, CPU seconds (user + system, every process of the
# pipeline), peak resident memory of the largest process (GNU time's %M).
# The inputs are generated into $BENCH_DIR (default /tmp/urlkit-scale-bench,
# never committed) by scripts/gendata from ../shared/bench/urls.
#
#   scale/scripts/bench.sh            ROUNDS=2 scale/scripts/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.." # the scale module
D=${BENCH_DIR:-/tmp/urlkit-scale-bench}
ROUNDS=${ROUNDS:-1}
[ -d "$D/text" ] && [ -d "$D/urls" ] || go run ./scripts/gendata --src ../../shared/bench/urls --dir "$D"
mkdir -p "$D/bin"
go build -o "$D/bin/urlkit-scale" ./cmd/urlkit-scale
(cd .. && go build -o "$D/bin/urlkit" ./cmd/urlkit)
export PATH="$D/bin:$PATH" LC_ALL=C
cd "$D"
echo "input: $(du -sb text | cut -f1) bytes of text in $(ls text | wc -l) files; $(cat urls/* | wc -l) URLs in $(ls urls | wc -l) files; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-15s %9s %9s %9s\n' run wall_s cpu_s peak_MB
measure() { # NAME COMMAND
    local name=$1; shift
    rm -rf out; /usr/bin/time -o time.txt -f '%e %U %S %M' bash -c "$*" >/dev/null
    read -r wall user sys kb <time.txt
    printf '%-15s %9.2f %9.2f %9d\n' "$name" "$wall" "$(echo "$user + $sys" | bc)" $((kb / 1024)) | tee -a rows.txt
}
urlkit extract -q -j 2 text/* >extracted.txt
rm -f rows.txt
for _ in $(seq "$ROUNDS"); do
    measure extract-scale 'urlkit-scale extract --input "text/*" --output out 2>/dev/null'
    measure extract-shell 'urlkit extract -q -j 2 text/* | urlkit normalize --mode rfc3986 2>/dev/null | sort | uniq -c'
    measure extract-alone 'urlkit extract -q -j 2 text/*'
    measure normalize-alone 'urlkit normalize --mode rfc3986 <extracted.txt 2>/dev/null'
    measure hosts-scale 'urlkit-scale hosts --input "urls/*" --output out 2>/dev/null'
    measure hosts-shell 'cat urls/* | urlkit parse --mode rfc3986 --json --fields host -j 2 2>/dev/null | sort | uniq -c'
done
# The issue's ratios, round by round (the machine's speed moves between
# rounds, less within one), and their medians.
awk '{ w[$1] = $2; c[$1] = $3 }
     $1 == "hosts-shell" {
        n++
        a[n] = w["extract-scale"] / w["extract-alone"]; b[n] = c["extract-scale"] / c["extract-alone"]
        d[n] = w["extract-scale"] / w["extract-shell"]; e[n] = c["hosts-scale"] / c["hosts-shell"]
        printf "round %d: extract-scale/extract-alone wall %.2f CPU %.2f; extract-scale/extract-shell wall %.2f; hosts-scale/hosts-shell CPU %.2f\n", n, a[n], b[n], d[n], e[n]
     }
     function med(x,   i, j, t, m) { m = n; for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
        return m % 2 ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2 }
     END { printf "median of %d rounds: extract-scale/extract-alone wall %.2f CPU %.2f; extract-scale/extract-shell wall %.2f; hosts-scale/hosts-shell CPU %.2f\n", n, med(a), med(b), med(d), med(e) }' rows.txt
rm -rf out time.txt extracted.txt rows.txt
