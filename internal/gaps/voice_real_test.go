package gaps

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// remedyWords names, per verdict class, the words of its remedies, read
// from the advice a person gets; a line that names another class's remedy
// must cite a share (a number with %) that justifies it.
var remedyWords = map[string][]string{
	ClassInput:      {"num_workers", "pin_memory", "preprocessing", "input preparation"},
	ClassLaunch:     {"CUDA graphs", "launch overhead", "amortise launches"},
	ClassSync:       {".item()", "synchronize"},
	ClassCPU:        {"CPU work out of the loop"},
	ClassDependency: {"cudaStreamWaitEvent"},
	ClassStartup:    {"warm-up"},
}

var citesShare = regexp.MustCompile(`\d+(\.\d+)?% of the step time`)

// One voice, on every shared trace with a GPU lane: the advice names the
// remedies of the verdict's class (or of the steady state's when start-up
// dominates) only; every "also" names another class's remedy with the
// share of the step time that justifies it, and that share is the step
// breakdown's.
func TestOneVoiceReal(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testenv.Shared(t), "traces", "*.json*"))
	checked, alsos := 0, 0
	for _, f := range files {
		r := Analyze(load(t, f), Options{Device: -1, Stream: -1})
		v := r.Verdict
		if r.NoGPU {
			continue
		}
		checked++
		ok := func(c string) bool { return c == v.Class || (v.Class == ClassStartup && c == v.SteadyClass) }
		name := filepath.Base(f)
		for c, words := range remedyWords {
			for _, w := range words {
				if strings.Contains(v.Advice, w) && !ok(c) {
					t.Errorf("%s: %s verdict, its advice names a %s remedy (%q): %s", name, v.Class, c, w, v.Advice)
				}
			}
		}
		for _, a := range v.Also {
			alsos++
			if !citesShare.MatchString(a) {
				t.Errorf("%s: also without its number: %s", name, a)
			}
			named := ""
			for c, words := range remedyWords {
				for _, w := range words {
					if strings.Contains(a, w) {
						named = c
					}
				}
			}
			if named == "" || ok(named) {
				t.Errorf("%s: %s verdict: an also that names no other class's remedy: %s", name, v.Class, a)
			}
			bd := r.Breakdown
			role := RoleDataLoader
			if named == ClassLaunch {
				role = RoleRuntime
			}
			if want := fmtPct(float64(bd.Total.Ns[role])*100/float64(bd.Total.TotalNs)) + " of the step time"; !strings.Contains(a, want) {
				t.Errorf("%s: %q does not cite the breakdown's %s", name, a, want)
			}
		}
		if bd := r.Breakdown; bd != nil && bd.Advice != "" && bd.AgreesWithVerdict != ok(bd.AdviceClass) {
			t.Errorf("%s: breakdown advice of class %s, verdict %s: agrees %v", name, bd.AdviceClass, v.Class, bd.AgreesWithVerdict)
		}
	}
	if checked < 18 || alsos == 0 {
		t.Errorf("%d shared traces with a GPU lane checked (want 18), %d also lines (want some)", checked, alsos)
	}
}
