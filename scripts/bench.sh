#!/bin/sh
# bench.sh BIN SCAN TRACE: runs a scan baseline (SCAN: a field scanner over
# mmap on every core, the speed limit of this machine) and then each tracetab
# command 3 times on TRACE, and prints each one's median wall time, MB/s,
# the largest peak RSS (GNU time), its ratio to the scan's time and the
# median of its wall-time ratios to info (each run paired with a run of
# info just before it, so a drifting machine shifts both).
set -eu
bin=$1
scan=$2
trace=$3
if [ ! -x /usr/bin/time ]; then
  echo "bench: needs GNU time (apt-get install time)" >&2
  exit 2
fi
size=$(wc -c < "$trace")
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
scanmed=""
# one CMD...: prints "seconds peak-KiB" of one run
one() {
  /usr/bin/time -o "$tmp" -f "%e %M" "$@" >/dev/null 2>&1 || true
  cat "$tmp"
}
run() { # run LABEL CMD...: median of 3, each run paired with one of info
  label=$1
  shift
  times=""
  ratios=""
  rss=0
  for i in 1 2 3; do
    if [ -n "$scanmed" ]; then
      read -r it ir <<EOF2
$(one $bin info "$trace")
EOF2
    fi
    read -r t r <<EOF2
$(one "$@")
EOF2
    times="$times $t"
    [ -n "$scanmed" ] && ratios="$ratios $(awk -v a="$t" -v b="$it" 'BEGIN { if (b <= 0) b = 0.01; printf "%.4f", a/b }')"
    [ "$r" -gt "$rss" ] && rss=$r
  done
  med=$(printf '%s\n' $times | sort -n | sed -n 2p)
  vsinfo=""
  [ -n "$ratios" ] && vsinfo=$(printf '%s\n' $ratios | sort -n | sed -n 2p)
  [ -z "$scanmed" ] && scanmed=$med
  awk -v c="$label" -v t="$med" -v s="$size" -v r="$rss" -v b="$scanmed" -v vi="$vsinfo" 'BEGIN {
    if (t <= 0) t = 0.01; if (b <= 0) b = 0.01
    line = sprintf("%-26s %6.2f s  %7.1f MB/s  peak RSS %7.1f MiB (%.3f x file)  %5.2f x scan", c, t, s/t/1e6, r/1024, r*1024/s, t/b)
    if (vi != "") line = line sprintf("  %5.2f x info", vi)
    print line }'
}
echo "$(basename "$trace"): $size bytes, $(nproc) cores, medians of 3 (x info: the median of 3 ratios, each run paired with a run of info just before it)"
run "scan baseline" "$scan" "$trace"
# Each command as the user types it, @ standing for the trace; the pattern
# of chain is a name every trace made by tracegen has.
for cmd in "info @" "table @" "table @ --by kernel" "table @ --by step" "gaps @" "compile @" \
  "chain @ aten::mm --summary" "ranks @" "roofline @" \
  "report @ -o /dev/null"; do
  sub=${cmd%% *}
  $bin "$sub" --help >/dev/null 2>&1 || continue
  # shellcheck disable=SC2086
  set -- $(printf '%s\n' "$cmd" | sed "s|@|$trace|")
  run "$(printf '%s\n' "$cmd" | sed 's| @||')" $bin "$@"
done
