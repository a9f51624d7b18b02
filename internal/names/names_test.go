package names

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTruncate(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  string
	}{
		{"aten::mm", 55, "aten::mm"},
		{"aten::mm", 0, "aten::mm"},
		{"abcdefghij", 10, "abcdefghij"},
		{"abcdefghijk", 10, "abcd...ijk"},
		{"Cijk_Alik_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN_1LDSB0_APM1_CA1", 20, "Cijk_Alik...APM1_CA1"},
		{"αβγδεζηθικλμ", 9, "αβγ...κλμ"},
		{"abcdefgh", 4, "abcd"},
	} {
		got := Truncate(c.in, c.width)
		if c.width > 0 && utf8.RuneCountInString(got) > c.width {
			t.Errorf("Truncate(%q, %d) = %q is wider than %d", c.in, c.width, got, c.width)
		}
		if got != c.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}

func TestColumnDistinct(t *testing.T) {
	// three names that differ only in the middle: the tail cannot tell
	// them apart, the suffix must
	in := []string{
		"Cijk_Alik_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN_CA1",
		"Cijk_Alik_Bljk_HHS_BH_MT64x128x32_MI32x32x8x1_SN_CA1",
		"Cijk_Alik_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN_CA1",
		"Cijk_Alik_Bljk_HHS_BH_MT128x64x32_MI32x32x8x1_SN_CA1",
		"short",
	}
	out := Column(in, 24)
	if out[0] != out[2] {
		t.Errorf("equal names must show the same: %q %q", out[0], out[2])
	}
	shown := map[string]string{}
	for i, s := range out {
		if utf8.RuneCountInString(s) > 24 {
			t.Errorf("%q is wider than 24", s)
		}
		if o, ok := shown[s]; ok && o != in[i] {
			t.Errorf("%q and %q both show as %q", o, in[i], s)
		}
		shown[s] = in[i]
	}
	if !strings.HasSuffix(out[1], "#2") || !strings.HasSuffix(out[3], "#3") || out[4] != "short" {
		t.Errorf("suffixes: %q", out)
	}
	// without a width limit nothing changes
	if got := Column(in, 0); strings.Join(got, "|") != strings.Join(in, "|") {
		t.Errorf("width 0 changed names: %q", got)
	}
}

func TestDemangle(t *testing.T) {
	for in, want := range map[string]string{
		"_ZN2at6native18elementwise_kernelILi128ELi2EEEviT_": "void at::native::elementwise_kernel<128, 2>(int, 128)",
		"_Z3fooi":                     "foo(int)",
		"aten::mm":                    "aten::mm",
		"_Znot a mangled name at all": "_Znot a mangled name at all",
		"void at::native::foo<4>()":   "void at::native::foo<4>()",
	} {
		if got := Demangle(in); got != want {
			t.Errorf("Demangle(%q) = %q, want %q", in, got, want)
		}
	}
	if !IsMangled("_Z3fooi") || IsMangled("foo") || IsMangled("_Zzz") {
		t.Error("IsMangled")
	}
	if got := DemangleAll([]string{"_Z3fooi", "x", "_Z3fooi"}); got[0] != "foo(int)" || got[1] != "x" || got[2] != "foo(int)" {
		t.Errorf("DemangleAll: %q", got)
	}
}

func TestDemangledOrNil(t *testing.T) {
	if d := DemangledOrNil("_Z3fooi"); d == nil || *d != "foo(int)" {
		t.Errorf("DemangledOrNil(_Z3fooi) = %v", d)
	}
	if d := DemangledOrNil("aten::mm"); d != nil {
		t.Errorf("DemangledOrNil(aten::mm) = %q, want nil", *d)
	}
}
