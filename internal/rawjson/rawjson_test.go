package rawjson

import (
	"encoding/json"
	"testing"
)

func TestNs(t *testing.T) {
	for _, c := range []struct {
		in   any
		want int64
	}{
		{json.Number("1.5"), 1500}, {"2.0005", 2000}, {json.Number("-0.0019"), -1}, {json.Number("1695835535123456.789"), 1695835535123456789},
		{nil, 0}, {true, 0},
	} {
		got, err := Ns(c.in)
		if err != nil || got != c.want {
			t.Errorf("Ns(%v) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	if _, err := Ns("N/A"); err == nil {
		t.Error("Ns(N/A) gave no error")
	}
	if ID(json.Number("42")) != "42" || ID("x") != "x" || ID(3.0) != "" {
		t.Error("ID")
	}
}
