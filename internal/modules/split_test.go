package modules

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
)

// TestSplit: frames go to the bucket of their start with all they hold;
// a frame crossing a bucket boundary stays whole in its start's bucket;
// buckets and Outside add up to the node numbers of Build.
func TestSplit(t *testing.T) {
	b := &tb{}
	// bucket 0: [0, 100), bucket 1: [100, 200), outside from 200
	b.mod(1, "Model_0", 0, 90)
	b.mod(1, "Linear_0", 10, 20)
	b.launch(1, 15, 5)
	b.launch(1, 50, 2) // Model_0's own
	b.mod(1, "Model_0", 100, 95)
	b.mod(1, "Linear_0", 150, 60) // ends after Model_0: its own top-level node
	b.launch(1, 160, 7)
	b.mod(1, "Model_0", 300, 10)
	b.mod(1, "Linear_0", 301, 5)
	b.launch(1, 302, 1)
	src := `{"schemaVersion":1,"traceEvents":[` + strings.Join(b.ev, ",") + `]}`
	tr, err := parse.Read(bytes.NewReader([]byte(src)), "split", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bucket := func(start int64) int {
		switch {
		case start < 100_000:
			return 0
		case start < 200_000:
			return 1
		}
		return -1
	}
	s := BuildSplit(tr, 2, bucket)
	whole := Build(tr)
	if len(s.Nodes) != len(whole.Nodes) {
		t.Fatalf("%d nodes split, %d whole", len(s.Nodes), len(whole.Nodes))
	}
	for n := range s.Nodes {
		var sum Values
		for _, v := range append(append([]Values(nil), s.Buckets[n]...), s.Outside[n]) {
			sum.Occurrences += v.Occurrences
			sum.HostTotal += v.HostTotal
			sum.HostSelf += v.HostSelf
			sum.DeviceTotal += v.DeviceTotal
			sum.DeviceSelf += v.DeviceSelf
		}
		nd := whole.Nodes[n]
		if want := (Values{nd.Occurrences, nd.HostTotal, nd.HostSelf, nd.DeviceTotal, nd.DeviceSelf}); sum != want || whole.Path(n) != s.Path(n) {
			t.Errorf("%s: buckets sum to %+v, Build has %+v", s.Path(n), sum, want)
		}
	}
	byPath := map[string]int{}
	for n := range s.Nodes {
		byPath[s.Path(n)] = n
	}
	const us = 1000
	for _, c := range []struct {
		path   string
		bucket int // -1: Outside
		want   Values
	}{
		{"Model_0", 0, Values{1, 90 * us, 70 * us, 7 * us, 2 * us}},
		{"Model_0", 1, Values{1, 95 * us, 95 * us, 0, 0}},
		{"Model_0", -1, Values{1, 10 * us, 5 * us, 1 * us, 0}},
		{"Model_0/Linear_0", 0, Values{1, 20 * us, 20 * us, 5 * us, 5 * us}},
		{"Model_0/Linear_0", 1, Values{}},
		{"Model_0/Linear_0", -1, Values{1, 5 * us, 5 * us, 1 * us, 1 * us}},
		{"Linear_0", 1, Values{1, 60 * us, 60 * us, 7 * us, 7 * us}},
	} {
		n, ok := byPath[c.path]
		if !ok {
			t.Fatalf("no node %s", c.path)
		}
		got := s.Outside[n]
		if c.bucket >= 0 {
			got = s.Buckets[n][c.bucket]
		}
		if got != c.want {
			t.Errorf("%s bucket %d: %+v, want %+v", c.path, c.bucket, got, c.want)
		}
	}
}
