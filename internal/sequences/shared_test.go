package sequences

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
)

func readTrace(t *testing.T, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return data
}

// modelSeqs keys the model's sequences as the raw reading does (devices
// merged: the key has the stream only).
func modelSeqs(r *Result) map[string]rawSeq {
	out := map[string]rawSeq{}
	for _, s := range r.Sequences {
		k := seqKey(s.Op, s.Stream, s.Kernels)
		v := out[k]
		v.count += s.Count
		v.device += s.DeviceNs
		v.host += s.HostNs
		out[k] = v
	}
	return out
}

// compareSeqs reports every difference between the model's sequences and
// the raw reading's, at most five of them.
func compareSeqs(t *testing.T, name string, got, want map[string]rawSeq) {
	t.Helper()
	bad := 0
	for k, w := range want {
		if g, ok := got[k]; !ok || g != w {
			if bad++; bad <= 5 {
				t.Errorf("%s: %.200s: count, device, host %v; the raw JSON %v (found %v)", name, k, g, w, ok)
			}
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			if bad++; bad <= 5 {
				t.Errorf("%s: %.200s: %v not in the raw JSON", name, k, g)
			}
		}
	}
}

// TestSharedTracesAgainstRawJSON: on every shared trace, with --min-len 3
// and 1, the sequences (root name, stream, device op names), their counts,
// device and host time equal the test's own reading of the JSON (launch
// call by correlation, the outermost cpu_op containing it, each stream's
// device ops of one root in time order); every trace whose raw reading
// has a sequence is checked, and at least five do.
func TestSharedTracesAgainstRawJSON(t *testing.T) {
	t.Parallel() // reads cached traces and raw events only
	dir := filepath.Join(testenv.Shared(t), "traces")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json*"))
	if len(paths) == 0 {
		t.Fatalf("no traces in %s", dir)
	}
	withSeqs, checked := 0, 0
	for _, p := range paths {
		if strings.HasSuffix(p, ".tar.gz") {
			continue
		}
		name := filepath.Base(p)
		evs := rawFile(t, p)
		root := topLevelRoot(evs)
		tr, _, err := testcache.Open(p, testcacheOptions)
		if err != nil {
			t.Fatal(err)
		}
		for _, minLen := range []int{3, 1} {
			want, n, ns := rawSequences(evs, minLen, root)
			res := Build(tr, Options{MinLen: minLen})
			if res.DeviceOps != n || res.DeviceNs != ns {
				t.Errorf("%s: %d device ops, %d ns; the raw JSON %d, %d", name, res.DeviceOps, res.DeviceNs, n, ns)
			}
			compareSeqs(t, name, modelSeqs(res), want)
			if minLen == 3 {
				if len(want) > 0 {
					withSeqs++
				}
				if len(res.Sequences) > 0 {
					checked++
				}
				t.Logf("%s: %d sequences (min 3) from %d roots; %d of %d device ops unlinked, %d without a root", name, len(res.Sequences), res.Roots, res.Unlinked, res.DeviceOps, res.NoRoot)
			}
		}
	}
	if checked != withSeqs || withSeqs < 5 {
		t.Fatalf("checked %d traces with sequences; the raw reading finds them in %d (want at least 5)", checked, withSeqs)
	}
}

var testcacheOptions = parse.Options{NoExtras: true, NoMemory: true}

// TestSharedOpRule: with --op, on the shared traces of at most 2 MB of
// JSON (the raw depth count compares every pair of a thread's events),
// the sequences equal the raw reading's: the shallowest events whose name
// contains the text are the roots. At least three traces are checked.
func TestSharedOpRule(t *testing.T) {
	t.Parallel() // reads cached traces and raw events only
	dir := filepath.Join(testenv.Shared(t), "traces")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json*"))
	checked := 0
	for _, p := range paths {
		data := readTrace(t, p)
		if len(data) > 2<<20 || !bytes.Contains(data, []byte(`"kernel"`)) {
			continue
		}
		name := filepath.Base(p)
		evs := rawFile(t, p)
		tr, _, err := testcache.Open(p, testcacheOptions)
		if err != nil {
			t.Fatal(err)
		}
		seqs := 0
		for _, op := range []string{"aten::", "ProfilerStep", "linear", "conv"} {
			want, _, _ := rawSequences(evs, 3, nameRoot(evs, op))
			res := Build(tr, Options{MinLen: 3, Op: op})
			compareSeqs(t, name+" --op "+op, modelSeqs(res), want)
			seqs += len(want)
		}
		if seqs > 0 {
			checked++
		}
		t.Logf("%s: %d sequences over the four --op texts", name, seqs)
	}
	if checked < 3 {
		t.Fatalf("checked %d traces with --op sequences, want at least 3", checked)
	}
}
