package cli

import "testing"

// TestChainPastedGPULabel: a device row's label as the torch table prints it
// (name + " [gpu]") walks up from that device op, as the name with --up does.
func TestChainPastedGPULabel(t *testing.T) {
	p := testdata("sample.pt.trace.json")
	const k = "ampere_sgemm_32x32_sliced1x4_nn"
	want, _, code := run(t, "chain", p, k, "--up")
	if code != 0 {
		t.Fatalf("--up: exit %d", code)
	}
	got, _, code := run(t, "chain", p, k+" [gpu]")
	if code != 0 || got != want {
		t.Errorf("pasted label: exit %d\n%s\nwant\n%s", code, got, want)
	}
	if _, _, code := run(t, "chain", p, k+" [gpu]", "--down"); code != ExitUsage {
		t.Errorf("pasted label with --down: exit %d, want 2", code)
	}
}
