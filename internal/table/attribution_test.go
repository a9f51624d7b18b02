package table

import (
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
)

// TestAttributionOwnersWithoutSums: an attribution gives each kernel the
// op its time is attached to (the op of its launch call's External id),
// and holds no kernel sums (kdev: Compute's alone, whose totals still
// hold).
func TestAttributionOwnersWithoutSums(t *testing.T) {
	const js = `{"traceEvents":[
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":100,"args":{"External id":1}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":5,"args":{"External id":1,"correlation":7}},
{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":20,"dur":30,"args":{"External id":1,"correlation":7}},
{"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":200,"dur":50,"args":{"External id":2}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":210,"dur":5,"args":{"External id":2,"correlation":8}},
{"ph":"X","cat":"kernel","name":"add","pid":0,"tid":7,"ts":220,"dur":10,"args":{"External id":2,"correlation":8}}]}`
	tr, err := parse.Read(strings.NewReader(js), "attr.json", parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := Attribute(tr, Options{})
	if a.f.kdev != nil {
		t.Errorf("the attribution allocated kernel sums (%d)", len(a.f.kdev))
	}
	owners := map[string]string{}
	for p := 0; p < a.Len(); p++ {
		i := a.Event(p)
		if i < 0 || !tr.Ev(i).Kind.IsDevice() {
			continue
		}
		o := a.Owner(p)
		if o < 0 {
			owners[tr.NameOf(i)] = ""
			continue
		}
		owners[tr.NameOf(i)] = tr.NameOf(a.Event(o))
	}
	res, err := Compute(tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Compute's sums still hold: each op's CUDA total is its kernel's
	total := map[string]int64{}
	for _, r := range res.Rows {
		total[r.Name] = Ns(r.DevTotal)
	}
	t.Logf("owners %v, device totals %v", owners, total)
	for k, want := range map[string]int64{"aten::mm": 30000, "aten::add": 10000} {
		if total[k] != want {
			t.Errorf("%s: device total %d ns, want %d", k, total[k], want)
		}
	}
	for k, want := range map[string]string{"gemm": "aten::mm", "add": "aten::add"} {
		if owners[k] != want {
			t.Errorf("kernel %s owned by %q, want %q", k, owners[k], want)
		}
	}
}
