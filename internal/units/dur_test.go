package units

import "testing"

func TestDur(t *testing.T) {
	for _, c := range []struct {
		ns   int64
		want string
	}{
		{0, "0.000us"}, {1, "0.001us"}, {-1, "-0.001us"}, {-0, "0.000us"},
		{55680, "55.680us"}, {999999, "999.999us"}, {999999499, "999.999ms"},
		{999500, "999.500us"}, {999999500, "1.000s"}, {122149000, "122.149ms"}, {1234567890, "1.235s"},
		{-122149000, "-122.149ms"}, {3600e9, "3600.000s"},
	} {
		if got := Dur(c.ns); got != c.want {
			t.Errorf("Dur(%d) = %q, want %q", c.ns, got, c.want)
		}
	}
	if got := Pct(-0.001); got != "0.00" {
		t.Errorf("Pct(-0.001) = %q", got)
	}
}
