package categories

import (
	"path/filepath"
	"testing"

	"github.com/tracetab/tracetab/internal/opclass"
	"github.com/tracetab/tracetab/internal/ranks"
)

// TestCollectivesAreCommunication: on every shared trace, each collective
// kernel ranks matches across ranks (ranks.Summarize's Colls) is filed
// under communication, and communication holds nothing else: the same
// count and the same summed duration.
func TestCollectivesAreCommunication(t *testing.T) {
	comm := Index(opclass.CatCommunication)
	withColls := 0
	for _, p := range sharedTraces(t) {
		tr := open(t, p)
		s := ranks.Summarize(tr, 0)
		res := Build(tr, nil)
		var ns int64
		for _, c := range s.Colls {
			ns += max(c.Dur, 0)
		}
		if got := res.Cells[comm]; got.Kernels != len(s.Colls) || got.DeviceNs != ns {
			t.Errorf("%s: communication has %d ops, %d ns; ranks matches %d collectives, %d ns", filepath.Base(p), got.Kernels, got.DeviceNs, len(s.Colls), ns)
		}
		if len(s.Colls) > 0 {
			withColls++
		}
	}
	t.Logf("%d traces with collectives", withColls)
	if withColls < 4 {
		t.Fatalf("%d shared traces with collectives checked, want 4 or more (NCCL traces of HTA, param and TraceLens)", withColls)
	}
}
