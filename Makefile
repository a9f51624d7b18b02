# tracetab: build, test, benchmark, fuzz.
GO       ?= go
BIN      := bin/tracetab
CACHE    := .cache
FUZZTIME ?= 10s

.PHONY: build test check golden fuzz bench bench-ranks bench-gzip bench-go lint sample clean stress pgo

VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-s -w -X github.com/tracetab/tracetab/internal/cli.Version=$(VERSION)" -o $(BIN) ./cmd/tracetab

# Vet, a short fuzz run of the parser and of the commands, all tests, and
# beside them the race detector on the concurrent packages and the DuckDB
# queries over exported traces (tests/duckdb: a module of its own, built
# with cgo; the tracetab binary stays pure Go); then each stage's time and
# one line saying how many checks skipped because ../shared (real traces,
# torch's tables) or Chromium is absent. scripts/test.sh says more.
test:
	@GO=$(GO) CACHE=$(CACHE) sh scripts/test.sh

# The inner loop (under a minute): gofmt, vet and -short tests of the
# packages changed since HEAD (CHECK_BASE=ref to compare with another), and
# every view's golden files. make test runs everything.
check:
	@GO=$(GO) sh scripts/check.sh

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
	TRACETAB_UPDATE=1 $(GO) test -count=1 ./...

fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./internal/parse

# The sample trace the README's first command reads.
sample:
	$(GO) run ./cmd/tracegen -steps 4 -o testdata/sample.pt.trace.json

# End-to-end speed and memory on the three benchmark shapes side by side
# (made once, cached in BENCH_DIR): the generator's default at 1 GB, the
# Kineto style users record (tracegen -kineto: export_chrome_trace's layout,
# absolute timestamps, shapes, memory records, four H100s) at 512 MB, and
# the deep export style (tracegen -shape export: the same on one A100, every
# cpu_op tree 4 to 6 deep) at 512 MB; each with module frames (-modules) for
# table --by module.
# bench-gzip: the three shapes at 512 MB, gzipped, against the decoder alone.
BENCH_DIR    ?= $(CACHE)
BENCH_GB     := $(BENCH_DIR)/bench-1g-modules.json
BENCH_512    := $(BENCH_DIR)/bench-512m-modules.json
BENCH_KINETO := $(BENCH_DIR)/bench-kineto-512m-modules.json
BENCH_EXPORT := $(BENCH_DIR)/bench-export-512m-modules.json

bench: build
	@mkdir -p $(BENCH_DIR)
	$(GO) build -o bin/scanbase ./cmd/scanbase
	@test -f $(BENCH_GB) || $(GO) run ./cmd/tracegen -size 1GB -layers 8 -modules -o $(BENCH_GB)
	@test -f $(BENCH_KINETO) || $(GO) run ./cmd/tracegen -size 512MB -layers 8 -modules -kineto -o $(BENCH_KINETO)
	@test -f $(BENCH_EXPORT) || $(GO) run ./cmd/tracegen -size 512MB -layers 8 -modules -shape export -o $(BENCH_EXPORT)
	@sh scripts/bench.sh $(BIN) bin/scanbase $(BENCH_GB) $(BENCH_KINETO) $(BENCH_EXPORT)
	@$(MAKE) --no-print-directory bench-ranks

# bench-ranks: ranks, trend and export over a generated job of 1,024 small ranks
# and one of 64 medium ranks (made once, cached in BENCH_DIR/ranks), each
# against info on one file of the same total size and shape: MB/s, CPU
# time, peak RSS (issue 35: at least 0.8x info's MB/s).
bench-ranks: build
	@mkdir -p $(BENCH_DIR)/ranks
	$(GO) build -o bin/tracegen ./cmd/tracegen
	@sh scripts/bench-ranks.sh $(BIN) bin/tracegen $(BENCH_DIR)/ranks

bench-gzip: build
	@mkdir -p $(BENCH_DIR)
	$(GO) build -o bin/scanbase ./cmd/scanbase
	@test -f $(BENCH_512).gz || { $(GO) run ./cmd/tracegen -size 512MB -layers 8 -modules | gzip -9 > $(BENCH_512).gz.tmp && mv $(BENCH_512).gz.tmp $(BENCH_512).gz; }
	@test -f $(BENCH_KINETO).gz || { $(GO) run ./cmd/tracegen -size 512MB -layers 8 -modules -kineto | gzip -9 > $(BENCH_KINETO).gz.tmp && mv $(BENCH_KINETO).gz.tmp $(BENCH_KINETO).gz; }
	@test -f $(BENCH_EXPORT).gz || { $(GO) run ./cmd/tracegen -size 512MB -layers 8 -modules -shape export | gzip -9 > $(BENCH_EXPORT).gz.tmp && mv $(BENCH_EXPORT).gz.tmp $(BENCH_EXPORT).gz; }
	@sh scripts/bench.sh $(BIN) bin/scanbase $(BENCH_512).gz $(BENCH_KINETO).gz $(BENCH_EXPORT).gz

# pgo: the CPU profile go build applies to tracetab (cmd/tracetab/default.pgo,
# profile-guided optimization), remade from tracetab's commands on the three
# benchmark shapes at 200 MB and the default one gzipped (made once, cached
# in BENCH_DIR). The binary that runs them is built without the profile.
PGO_TRACES := $(BENCH_DIR)/pgo-200m.json $(BENCH_DIR)/pgo-kineto-200m.json $(BENCH_DIR)/pgo-export-200m.json $(BENCH_DIR)/pgo-200m.json.gz
pgo:
	@mkdir -p $(BENCH_DIR) bin
	CGO_ENABLED=0 $(GO) build -pgo=off -o bin/tracetab-nopgo ./cmd/tracetab
	@test -f $(BENCH_DIR)/pgo-200m.json || $(GO) run ./cmd/tracegen -size 200MB -layers 8 -modules -o $(BENCH_DIR)/pgo-200m.json
	@test -f $(BENCH_DIR)/pgo-kineto-200m.json || $(GO) run ./cmd/tracegen -size 200MB -layers 8 -modules -kineto -o $(BENCH_DIR)/pgo-kineto-200m.json
	@test -f $(BENCH_DIR)/pgo-export-200m.json || $(GO) run ./cmd/tracegen -size 200MB -layers 8 -modules -shape export -o $(BENCH_DIR)/pgo-export-200m.json
	@test -f $(BENCH_DIR)/pgo-200m.json.gz || gzip -6 -k $(BENCH_DIR)/pgo-200m.json
	sh scripts/pgo.sh bin/tracetab-nopgo $(PGO_TRACES)

# Parser micro-benchmarks (go test -bench).
bench-go:
	$(GO) test -run '^$$' -bench . -benchmem ./internal/...

lint:
	$(GO) vet ./...
	$(GO) mod tidy -diff
	test -z "$$(gofmt -l $$(git ls-files '*.go'))"

clean:
	rm -rf bin $(CACHE)
