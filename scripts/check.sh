#!/bin/sh
# make check: the inner loop, under a minute on two cores with warm caches.
# gofmt over the tree, go vet and the tests (-short) of the packages whose Go
# files changed since CHECK_BASE (default HEAD, untracked files included),
# and the golden files of every view (-run Golden: the views on their models
# in internal/render/..., the commands' contract in internal/cli). The whole
# internal/cli package is left to make test (it runs every command on every
# shared trace); its golden tests run here whatever changed.
set -eu
GO=${GO:-go}
base=${CHECK_BASE:-HEAD}
bad=$(gofmt -l $(git ls-files '*.go') $(git ls-files --others --exclude-standard '*.go'))
if [ -n "$bad" ]; then
	echo "make check: not gofmt'ed: $bad" >&2
	exit 1
fi
changed=$( { git diff --name-only "$base" -- '*.go'; git ls-files --others --exclude-standard '*.go'; } | sort -u)
pkgs=$(for f in $changed; do [ -f "$f" ] && echo "./$(dirname "$f")"; done | sort -u)
if [ -z "$pkgs" ]; then
	echo "make check: no Go file changed since $base: vet of every package and the goldens" >&2
	$GO vet ./...
else
	echo "make check: changed since $base:" $pkgs >&2
	$GO vet $pkgs
	rest=$(echo "$pkgs" | grep -v '^./internal/cli$' || true)
	if [ -n "$rest" ]; then
		$GO test -short -count=1 $rest
	fi
fi
$GO test -short -count=1 -run 'Golden' ./internal/cli ./internal/render/...
