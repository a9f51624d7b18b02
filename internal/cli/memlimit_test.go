package cli

// testMemoryLimit is the soft limit of this package's test binary's heap
// (debug.SetMemoryLimit; GOMEMLIMIT overrides it). The binary keeps every
// reference trace parsed (internal/testcache, 40-100 MB over the reading
// options the commands ask for) and its raw events decoded (internal/rawjson,
// 285 MB for the shared traces with their args): about 400 MB live that
// every test reads again. At Go's default target the heap may grow to twice
// the live size before a collection; the limit makes the collector run
// sooner instead, so the binary stays under make test's 1 GB of peak RSS
// while the live heap stays well under the limit (measured in the closing
// note of issue 33).
const testMemoryLimit = 850 << 20
