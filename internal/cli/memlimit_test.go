package cli

// testMemoryLimit is the soft limit of this package's test binary's heap
// (debug.SetMemoryLimit; GOMEMLIMIT overrides it, as make test sets it).
// The binary keeps every reference trace parsed (internal/testcache) and
// its raw events decoded (internal/rawjson: 285 MB for the shared traces
// with their args), which every test reads again. At Go's default target
// the heap may grow to twice the live size before a collection; the limit
// makes the collector run sooner instead. Measured on the whole package
// (2 cores, 2026-12-07): 167 CPU s and a peak RSS of 891 MB with it.
const testMemoryLimit = 850 << 20
