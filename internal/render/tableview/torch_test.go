package tableview

import "testing"

func TestTorchFormats(t *testing.T) {
	for _, c := range []struct {
		us   float64
		unit string
		want string
	}{
		{999.9994, "", "999.999us"}, {1000, "", "1.000ms"}, {10146.5, "", "10.146ms"}, // float64 10.1465 is below the tie
		{2.5e6, "", "2.500s"}, {-61.361, "", "-61.361us"}, {1500, "us", "1500.000us"}, {1500, "s", "0.002s"},
	} {
		if got := torchTime(c.us, c.unit); got != c.want {
			t.Errorf("torchTime(%v, %q) = %q, want %q", c.us, c.unit, got, c.want)
		}
	}
	for _, c := range []struct {
		n     int64
		upper bool
		want  string
	}{
		{0, false, "0 b"}, {-8, true, "-8 B"}, {201748, false, "197.02 Kb"}, {-201728, true, "-197.00 KB"}, {3 << 30, true, "3.00 GB"},
	} {
		if got := torchMemory(c.n, c.upper); got != c.want {
			t.Errorf("torchMemory(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	if share(0, 0) != "NaN" || share(1, 3) != "33.33%" {
		t.Error("share")
	}
	if got := (cols{}).trimPath("abcdefghij", 6); got != "...hij" {
		t.Errorf("trimPath %q", got)
	}
}
