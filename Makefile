# tracetab: build, test, benchmark, fuzz.
GO       ?= go
BIN      := bin/tracetab
CACHE    := .cache
BENCH_GB := $(CACHE)/bench-1g.json
FUZZTIME ?= 10s

.PHONY: build test golden fuzz bench bench-go lint sample clean stress

VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-s -w -X github.com/tracetab/tracetab/internal/cli.Version=$(VERSION)" -o $(BIN) ./cmd/tracetab

# All tests, vet, and a short fuzz run of the parser.
test:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 10s ./internal/parse

# The hostile corpus at full size (issue 12): 1e5 streams, 2e5 threads, 3e5
# names, 1e6-deep nesting, a 5 GB gzip bomb, 100 MB values, truncation at 200
# offsets of three real traces, the 200 MB fake-events string read in
# parallel; then a -race binary on a few cases. Prints the slowest case and
# the largest memory ratio (add -v to see every run). Needs about 6 GB of
# memory; the files are written to $$TMPDIR (the bomb is 18 MB compressed).
stress:
	TRACETAB_STRESS=1 $(GO) test -count=1 -timeout 60m -run 'Stress' ./internal/parse
	@mkdir -p $(CACHE)
	$(GO) test -count=1 -timeout 60m -run '^TestHostile' ./internal/cli -stress -v > $(CACHE)/stress.log 2>&1 || (grep -E -- '--- FAIL|hostile_test' $(CACHE)/stress.log | tail -40; exit 1)
	@grep -E -- '--- SKIP|^hostile corpus' $(CACHE)/stress.log
	TRACETAB_RACE=1 $(GO) test -count=1 -timeout 30m -run '^TestHostile$$/^(big-array-gzip|bad-text|gzip-bomb|streams)$$' ./internal/cli
	TRACETAB_RACE=1 $(GO) test -count=1 -timeout 30m -run '^TestHostileFiles$$' ./internal/cli

# Refresh golden files after a deliberate change; review the diff.
golden:
	$(GO) test ./... -update

fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./internal/parse

# The sample trace the README's first command reads.
sample:
	$(GO) run ./cmd/tracegen -steps 4 -o testdata/sample.pt.trace.json

# End-to-end speed and memory on a generated 1 GB trace (made once, cached).
bench: build
	@mkdir -p $(CACHE)
	@test -f $(BENCH_GB) || $(GO) run ./cmd/tracegen -size 1GB -layers 8 -o $(BENCH_GB)
	@sh scripts/bench.sh $(BIN) $(BENCH_GB)

# Parser micro-benchmarks (go test -bench).
bench-go:
	$(GO) test -run '^$$' -bench . -benchmem ./internal/...

lint:
	$(GO) vet ./...
	test -z "$$(gofmt -l $$(git ls-files '*.go'))"

clean:
	rm -rf bin $(CACHE)
