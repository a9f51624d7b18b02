#!/bin/sh
# bench-ranks.sh BIN TRACEGEN DIR: the commands over many files (ranks,
# trend, export) against info on one file of the same total size and shape.
#
# Two generated jobs (made once, cached in DIR): 1,024 small ranks (20
# steps, -layers 4, about 0.7 MB each, 727 MB) and 64 medium ranks (10 MB
# each, -layers 8, 640 MB), each with one file of the same total size made
# by tracegen -size with the same flags. Each command runs RUNS times (3
# unless BENCH_RUNS says), each run paired with a run of info on the one
# file just before it. Per job and command it prints the median wall
# time, MB/s of JSON, the median CPU time (user+sys), the largest peak RSS
# (GNU time) and the median of the ratios of its MB/s to info's in the
# paired run (issue 35: at least 0.8), by wall time and by CPU time (on a
# machine shared with other work the CPU ratio is the steadier one).
#
# BENCH_RANKS_COMMANDS replaces the command list (one a line; @ stands for
# the job's directory, % for a new empty directory of each run, removed when
# the script ends: export into a directory just emptied pays for ext4's
# checks of recently deleted inodes, some 40% of its kernel time).
set -eu
bin=$1
gen=$2
dir=$3
runs=${BENCH_RUNS:-3}
commands=${BENCH_RANKS_COMMANDS:-'ranks @
trend @
export @ --to %'}

if [ ! -x /usr/bin/time ]; then
  echo "bench-ranks: needs GNU time (apt-get install time)" >&2
  exit 2
fi
tmp=$(mktemp)
outs=$(mktemp -d)
trap 'rm -f "$tmp"; rm -rf "$outs"' EXIT

# job NAME N FLAGS...: writes DIR/NAME/rankNNNN.json (N ranks) and
# DIR/NAME-one.json (their total size in one file), unless they exist
job() {
  name=$1 n=$2
  shift 2
  if [ ! -d "$dir/$name" ]; then
    mkdir -p "$dir/$name.tmp"
    r=0
    while [ "$r" -lt "$n" ]; do
      "$gen" "$@" -world "$n" -rank "$r" -straggler $((n * 2 / 3)) -straggler-delay 3ms \
        -o "$dir/$name.tmp/rank$(printf %04d "$r").json" 2>/dev/null
      r=$((r + 1))
    done
    mv "$dir/$name.tmp" "$dir/$name"
  fi
  if [ ! -f "$dir/$name-one.json" ]; then
    total=$(cat "$dir/$name"/*.json | wc -c)
    # -size keeps adding steps: the flags but -steps and -size of the ranks
    one=$(printf '%s\n' "$@" | awk '$0 == "-steps" || $0 == "-size" { skip = 1; next } skip { skip = 0; next } { print }')
    # shellcheck disable=SC2086
    "$gen" $one -size "$total" -world "$n" -rank 0 -o "$dir/$name-one.json.tmp" 2>/dev/null
    mv "$dir/$name-one.json.tmp" "$dir/$name-one.json"
  fi
}

# one CMD...: prints "wall cpu peak-KiB" of one run
one() {
  /usr/bin/time -o "$tmp" -f "%e %U %S %M" "$@" >/dev/null 2>&1 || true
  tail -n 1 "$tmp" | awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }'
}
# ratio BYTES SECONDS INFO-BYTES INFO-SECONDS: the MB/s over info's
ratio() { awk -v b="$1" -v t="$2" -v ob="$3" -v it="$4" 'BEGIN { if (t <= 0) t = 0.01; if (it <= 0) it = 0.01; printf "%.4f", (b / t) / (ob / it) }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print ""; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

mkdir -p "$dir"
job ranks1024 1024 -steps 20 -layers 4
job ranks64 64 -size 10MB -layers 8

printf '%-14s %-6s %8s %7s %7s %10s %7s %7s\n' job command time MB/s CPU "peak RSS" "x info" "CPU x"
for name in ranks1024 ranks64; do
  files=$(ls "$dir/$name" | wc -l)
  bytes=$(cat "$dir/$name"/*.json | wc -c)
  single=$dir/$name-one.json
  obytes=$(wc -c <"$single")
  cat "$dir/$name"/*.json "$single" >/dev/null # into the page cache
  echo "bench-ranks: $name: $files files, $((bytes / 1000000)) MB; one file $((obytes / 1000000)) MB; $(nproc) cores, $runs runs" >&2
  printf '%s\n' "info @
$commands" | while IFS= read -r cmd; do
    [ -n "$cmd" ] || continue
    walls="" cpus="" ratios="" cratios="" rss=0
    i=0
    while [ "$i" -lt "$runs" ]; do
      i=$((i + 1))
      it=$(one "$bin" info "$single")
      if [ "$cmd" = "info @" ]; then
        out=$it b=$obytes
      else
        # shellcheck disable=SC2086
        out=$(one "$bin" $(printf '%s\n' "$cmd" | sed "s|@|$dir/$name|; s|%|$outs/$name-$i|"))
        b=$bytes
      fi
      set -- $out
      walls="$walls $1" cpus="$cpus $2"
      [ "$3" -gt "$rss" ] && rss=$3
      ratios="$ratios $(ratio "$b" "$1" "$obytes" "$(echo "$it" | cut -d' ' -f1)")"
      cratios="$cratios $(ratio "$b" "$2" "$obytes" "$(echo "$it" | cut -d' ' -f2)")"
    done
    w=$(printf '%s\n' $walls | median)
    c=$(printf '%s\n' $cpus | median)
    x=$(printf '%s\n' $ratios | median)
    xc=$(printf '%s\n' $cratios | median)
    label=$name
    [ "$cmd" = "info @" ] && label="$name-one"
    printf '%-14s %-6s %7.2fs %7.0f %6.2fs %6.0f MiB %7.2f %7.2f\n' "$label" "${cmd%% *}" "$w" \
      "$(awk -v b="$b" -v t="$w" 'BEGIN { if (t <= 0) t = 0.01; print b / t / 1e6 }')" \
      "$c" "$((rss / 1024))" "$x" "$xc"
  done
done
