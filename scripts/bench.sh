#!/bin/sh
# bench.sh BIN SCAN TRACE: runs a scan baseline (SCAN: a field scanner over
# mmap on every core, the speed limit of this machine) and then each tracetab
# command 3 times on TRACE, and prints each one's median wall time, MB/s,
# the largest peak RSS (GNU time) and its ratio to the scan's time.
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
run() { # run LABEL CMD...: median of 3
  label=$1
  shift
  times=""
  rss=0
  for i in 1 2 3; do
    /usr/bin/time -o "$tmp" -f "%e %M" "$@" >/dev/null 2>&1 || true
    read -r t r < "$tmp"
    times="$times $t"
    [ "$r" -gt "$rss" ] && rss=$r
  done
  med=$(printf '%s\n' $times | sort -n | sed -n 2p)
  [ -z "$scanmed" ] && scanmed=$med
  awk -v c="$label" -v t="$med" -v s="$size" -v r="$rss" -v b="$scanmed" 'BEGIN {
    if (t <= 0) t = 0.01; if (b <= 0) b = 0.01
    printf "%-20s %6.2f s  %7.1f MB/s  peak RSS %7.1f MiB (%.2f x file)  %5.2f x scan\n", c, t, s/t/1e6, r/1024, r*1024/s, t/b }'
}
echo "$(basename "$trace"): $size bytes, $(nproc) cores, medians of 3"
run "scan baseline" "$scan" "$trace"
for cmd in "info" "table" "table --by kernel" "table --by step" "gaps" "compile" "ranks"; do
  sub=${cmd%% *}
  $bin "$sub" --help >/dev/null 2>&1 || continue
  # shellcheck disable=SC2086
  run "$cmd" $bin $cmd "$trace"
done
