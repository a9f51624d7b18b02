#!/bin/sh
# pgo.sh BIN TRACE...: writes cmd/tracetab/default.pgo, the CPU profile
# that go build applies to tracetab (profile-guided optimization: Go reads
# default.pgo in the main package's directory by itself, -pgo=auto). It
# runs BIN's commands on each TRACE with the hidden --cpuprofile flag and
# merges the profiles. `make pgo` runs it on the three benchmark shapes at
# 200 MB and the default one gzipped; see docs/speed.md for what it gains.
set -e
if [ $# -lt 2 ]; then
	echo "usage: pgo.sh BIN TRACE..." >&2
	exit 2
fi
bin=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
i=0
for tr in "$@"; do
	for c in "info" "table" "table --sort self_cuda_time_total --limit 20" "table --by kernel" "table --by step" \
		"gaps" "roofline" "critical-path" "memory" "ranks" "report -o /dev/null" "export --jobs 1 --to $dir/export"; do
		i=$((i + 1))
		# shellcheck disable=SC2086 # the command's words
		if ! $bin $c --cpuprofile "$dir/$i.prof" "$tr" >/dev/null 2>"$dir/err"; then
			echo "pgo: tracetab $c $tr failed:" >&2
			cat "$dir/err" >&2
			exit 1
		fi
	done
done
go tool pprof -proto "$dir"/*.prof >cmd/tracetab/default.pgo.tmp
mv cmd/tracetab/default.pgo.tmp cmd/tracetab/default.pgo
echo "pgo: cmd/tracetab/default.pgo from $i runs ($(wc -c <cmd/tracetab/default.pgo) bytes)"
