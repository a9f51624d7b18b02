#!/bin/sh
# bench.sh BIN TRACE: runs each command 3 times on TRACE and prints the
# median wall time, throughput and the largest peak RSS (GNU time).
set -eu
bin=$1
trace=$2
if [ ! -x /usr/bin/time ]; then
  echo "bench: needs GNU time (apt-get install time)" >&2
  exit 2
fi
size=$(wc -c < "$trace")
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for cmd in "info" "table" "table --by kernel" "table --by step" "gaps"; do
  sub=${cmd%% *}
  $bin "$sub" --help >/dev/null 2>&1 || continue
  times=""
  rss=0
  for i in 1 2 3; do
    /usr/bin/time -o "$tmp" -f "%e %M" $bin $cmd "$trace" >/dev/null 2>&1
    read -r t r < "$tmp"
    times="$times $t"
    [ "$r" -gt "$rss" ] && rss=$r
  done
  med=$(printf '%s\n' $times | sort -n | sed -n 2p)
  awk -v c="$cmd" -v t="$med" -v s="$size" -v r="$rss" 'BEGIN {
    printf "%-18s %6.2f s median of 3  %7.1f MB/s  peak RSS %6.1f MiB (%.2f x file)\n", c, t, s/t/1e6, r/1024, r*1024/s }'
done
