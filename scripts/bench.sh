#!/bin/sh
# bench.sh BIN SCAN TRACE...: on each TRACE, runs a baseline (SCAN: a field
# scanner over mmap on every core, the speed limit of this machine; for a
# .gz trace, the gzip decoder alone) and then each tracetab command RUNS
# times (3 unless BENCH_RUNS says), each run paired with a run of info just
# before it, so a drifting machine shifts both. It prints, per command and
# trace side by side: the median wall time, MB/s of JSON (decompressed for
# gzip), the largest peak RSS (GNU time) and its ratio to the JSON, the
# ratio of the median time to the baseline's, the median of the wall-time
# ratios to info and their spread (the least and the largest of the runs),
# the least time over info's least (best: the runs a busy neighbour
# disturbed least), and the median of the CPU-time ratios to info (user +
# sys: on a machine shared with other work, the steadier of the two).
#
# BENCH_COMMANDS replaces the command list below (one command a line).
set -eu
bin=$1
scan=$2
shift 2
runs=${BENCH_RUNS:-3}
# The commands, one a line, as the user types them; @ stands for the trace.
# A command whose subcommand this tracetab lacks is left out, so a branch
# adds its own with one line. The pattern of chain is a name every trace
# made by tracegen has; the roots of the sequence view are the module frames
# (tracegen -modules): the generator's top-level ops launch fewer than three
# device ops each, so its default roots give no sequence.
commands=${BENCH_COMMANDS:-'info @
table @
table @ --sort self_cuda_time_total --limit 20
table @ --by kernel
table @ --by step
table @ --by module
table @ --by category
table @ --by sequence --op nn.Module
gaps @
compile @
chain @ aten::mm --summary
ranks @
roofline @
critical-path @
memory @
report @ -o /dev/null
crop @ --step 3 -o /tmp/tracetab-bench-crop.json
export @ --to /tmp/tracetab-bench-export --jobs 1'}

if [ ! -x /usr/bin/time ]; then
  echo "bench: needs GNU time (apt-get install time)" >&2
  exit 2
fi
tmp=$(mktemp)
res=$(mktemp)
trap 'rm -f "$tmp" "$res"' EXIT

# one CMD...: prints "seconds peak-KiB cpu-seconds" of one run; the wall
# time from the clock in ns (GNU time's is in hundredths: at 0.2 s, the
# ratios to info moved in steps of 5%)
one() {
  t0=$(date +%s%N)
  /usr/bin/time -o "$tmp" -f "%M %U %S" "$@" >/dev/null 2>&1 || true
  t1=$(date +%s%N)
  tail -n 1 "$tmp" | awk -v ns=$((t1 - t0)) '{ printf "%.4f %s %.2f\n", ns / 1e9, $1, $2 + $3 }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print ""; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# run COL LABEL PAIRED CMD...: RUNS runs (each after a run of info when
# PAIRED is 1); appends "COL<tab>LABEL<tab>median<tab>KiB<tab>ratio<tab>
# least ratio<tab>largest ratio<tab>CPU ratio" to $res
run() {
  col=$1 label=$2 paired=$3
  shift 3
  times="" itimes="" ratios="" cpus="" rss=0
  i=0
  while [ "$i" -lt "$runs" ]; do
    i=$((i + 1))
    if [ "$paired" = 1 ]; then
      iout=$(one "$bin" info "$trace")
      it=$(echo "$iout" | cut -d' ' -f1) ic=$(echo "$iout" | cut -d' ' -f3)
      itimes="$itimes $it"
    fi
    out=$(one "$@")
    t=$(echo "$out" | cut -d' ' -f1) r=$(echo "$out" | cut -d' ' -f2) c=$(echo "$out" | cut -d' ' -f3)
    times="$times $t"
    if [ "$paired" = 1 ]; then
      ratios="$ratios $(awk -v a="$t" -v b="$it" 'BEGIN { if (b <= 0) b = 0.01; printf "%.4f", a/b }')"
      cpus="$cpus $(awk -v a="$c" -v b="$ic" 'BEGIN { if (b <= 0) b = 0.01; printf "%.4f", a/b }')"
    fi
    [ "$r" -gt "$rss" ] && rss=$r
  done
  med=$(printf '%s\n' $times | median)
  vs="" lo="" hi="" vc="" best=""
  if [ -n "$ratios" ]; then
    vs=$(printf '%s\n' $ratios | median)
    lo=$(printf '%s\n' $ratios | sort -n | head -n 1)
    hi=$(printf '%s\n' $ratios | sort -n | tail -n 1)
    vc=$(printf '%s\n' $cpus | median)
    best=$(awk -v a="$(printf '%s\n' $times | sort -n | head -n 1)" -v b="$(printf '%s\n' $itimes | sort -n | head -n 1)" 'BEGIN { if (b <= 0) b = 0.01; printf "%.4f", a/b }')
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$col" "$label" "$med" "$rss" "$vs" "$lo" "$hi" "$vc" "$best" >>"$res"
}

col=0
heads=""
for trace in "$@"; do
  col=$((col + 1))
  case $trace in
  *.gz) text=$(gzip -dc "$trace" | wc -c) base="decoder alone" ;;
  *) text=$(wc -c <"$trace") base="scan baseline" ;;
  esac
  file=$(wc -c <"$trace")
  heads="$heads$col	$(basename "$trace")	$text	$file
"
  echo "bench: $(basename "$trace"): $file bytes ($text of JSON), $(nproc) cores, $runs runs a command" >&2
  # the file read once into the page cache, and one run of the baseline not
  # counted: the first timed run does not pay for the disk
  cat "$trace" >/dev/null
  one "$scan" "$trace" >/dev/null
  run "$col" "(baseline)" 0 "$scan" "$trace"
  printf '%s\n' "$commands" | while IFS= read -r cmd; do
    [ -n "$cmd" ] || continue
    sub=${cmd%% *}
    "$bin" "$sub" --help >/dev/null 2>&1 || continue
    # shellcheck disable=SC2086
    set -- $(printf '%s\n' "$cmd" | sed "s|@|$trace|")
    run "$col" "$(printf '%s\n' "$cmd" | sed 's| @||')" 1 "$bin" "$@"
  done
  printf '%s\n' "$base" >"$tmp.base$col"
done

# the table: one row per command, the traces side by side
{
  printf '%s' "$heads" | sed 's/^/H\t/'
  i=1
  while [ "$i" -le "$col" ]; do
    printf 'B\t%s\t%s\n' "$i" "$(cat "$tmp.base$i")"
    rm -f "$tmp.base$i"
    i=$((i + 1))
  done
  sed 's/^/R\t/' "$res"
} | awk -F '\t' -v runs="$runs" '
$1 == "H" { n++; name[$2] = $3; text[$2] = $4; size[$2] = $5; next }
$1 == "B" { bname[$2] = $3; next }
$1 == "R" {
  c = $2; l = $3
  if (!(l in seen)) { seen[l] = 1; order[++rows] = l }
  t[c, l] = $4; rss[c, l] = $5; vi[c, l] = $6; lo[c, l] = $7; hi[c, l] = $8; vc[c, l] = $9; bx[c, l] = $10
  if (l == "(baseline)") base[c] = $4
}
END {
  printf "medians of %d runs; x base: median time over the baseline'"'"'s; x info: median of the wall-time ratios to a run of info just before each run, with their spread (least-largest); best: the least time over info'"'"'s least (on a machine shared with other work, the runs least disturbed); CPU: median of the CPU-time (user+sys) ratios to the same runs\n", runs
  for (c = 1; c <= n; c++)
    printf "%d: %s, %.0f MB of JSON (%.0f MB file); baseline: %s\n", c, name[c], text[c] / 1e6, size[c] / 1e6, bname[c]
  line = sprintf("%-44s", "command")
  for (c = 1; c <= n; c++) line = line sprintf(" | %d: %7s %6s %19s %6s %6s %11s %5s %5s", c, "time", "MB/s", "peak RSS (x JSON)", "x base", "x info", "spread", "best", "CPU")
  print line
  for (r = 1; r <= rows; r++) {
    l = order[r]
    line = sprintf("%-44s", l == "(baseline)" ? "baseline" : l)
    for (c = 1; c <= n; c++) {
      if (!((c, l) in t)) { line = line sprintf(" | %2s %7s %6s %19s %6s %6s %11s %5s %5s", "", "-", "-", "-", "-", "-", "-", "-", "-"); continue }
      tt = t[c, l]; if (tt <= 0) tt = 0.01
      b = base[c]; if (b <= 0) b = 0.01
      if (l == "(baseline)") mem = "(maps/streams)"
      else mem = sprintf("%5.0f MiB (%.3f)", rss[c, l] / 1024, rss[c, l] * 1024 / text[c])
      xi = vi[c, l] == "" ? "" : sprintf("%.2f", vi[c, l])
      sp = lo[c, l] == "" ? "" : sprintf("%.2f-%.2f", lo[c, l], hi[c, l])
      xc = vc[c, l] == "" ? "" : sprintf("%.2f", vc[c, l])
      xx = bx[c, l] == "" ? "" : sprintf("%.2f", bx[c, l])
      xb = l == "(baseline)" ? "" : sprintf("%.2f", tt / b)
      line = line sprintf(" | %2s %6.3fs %6.0f %19s %6s %6s %11s %5s %5s", "", tt, text[c] / tt / 1e6, mem, xb, xi, sp, xx, xc)
    }
    print line
  }
}'
