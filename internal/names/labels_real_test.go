package names_test

import (
	"cmp"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tracetab/tracetab/internal/golden"
	"github.com/tracetab/tracetab/internal/names"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/testenv"
)

// kernelViews is, per shared trace with device work, its device op names
// as the kernel view lists them: largest total first.
func kernelViews(t *testing.T) map[string][]string {
	t.Helper()
	dir := testenv.Shared(t)
	paths, _ := filepath.Glob(filepath.Join(dir, "traces", "*.json*"))
	views := map[string][]string{}
	for _, p := range paths {
		tr, _, err := testcache.Open(p, parse.Options{})
		if err != nil {
			continue // the quirk files that are not traces
		}
		total := map[string]int64{}
		for i := 0; i < tr.NumEvents(); i++ {
			e := tr.Ev(i)
			if e.Kind.IsDeviceWork() {
				total[tr.Str(e.Name)] += e.Dur
			}
		}
		var ns []string
		for n := range total {
			ns = append(ns, n)
		}
		slices.SortFunc(ns, func(a, b string) int {
			if c := cmp.Compare(total[b], total[a]); c != 0 {
				return c
			}
			return strings.Compare(a, b)
		})
		if len(ns) > 0 {
			ns = names.DemangleAll(ns) // as the views pass them
			views[filepath.Base(p)] = ns
		}
	}
	if len(views) < 15 {
		t.Fatalf("only %d shared traces with device work were read; want at least 15", len(views))
	}
	return views
}

// TestLabelsGolden: every real kernel name of the shared traces with its
// label at 36 and 60 columns, in its trace's kernel view (labels depend on
// the other rows). Reviewed by hand; make golden refreshes it.
func TestLabelsGolden(t *testing.T) {
	views := kernelViews(t)
	var keys []string
	for k := range views {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	distinct := map[string]bool{}
	for _, k := range keys {
		ns := views[k]
		l36, l60 := names.Labels(ns, 36), names.Labels(ns, 60)
		fmt.Fprintf(&b, "## %s\n", k)
		for i, n := range ns {
			distinct[n] = true
			fmt.Fprintf(&b, "%-36s | %-60s | %s\n", l36[i], l60[i], names.Demangle(n))
		}
	}
	if len(distinct) < 200 {
		t.Fatalf("%d distinct kernel names; the golden wants at least 200", len(distinct))
	}
	golden.Check(t, ".", "labels.golden", b.String())
}

// ownName is the function's own name of a demangled "void ns::f<...>(...)"
// read independently of the labeller: the identifier before the first
// '<' or '(' after "void ". Launcher templates are left out.
var ownName = regexp.MustCompile(`^void (?:[\w:]+::)?(\w+)[<(]`)

// TestLabelsProperties: on every kernel view of every shared trace at 36
// and 80-column budgets, labels are unique wherever the full names differ,
// no wider than the budget, and hold the function's own name whole
// whenever it fits the budget with room for an argument.
func TestLabelsProperties(t *testing.T) {
	views := kernelViews(t)
	checked := 0
	for trace, ns := range views {
		for _, w := range []int{36, 60} {
			ls := names.Labels(ns, w)
			seen := map[string]string{}
			for i, n := range ns {
				l := ls[i]
				if utf8.RuneCountInString(l) > w {
					t.Errorf("%s: label %q of %q is wider than %d", trace, l, n, w)
				}
				if o, ok := seen[l]; ok && o != n {
					t.Errorf("%s at %d: %q and %q both read %q", trace, w, o, n, l)
				}
				seen[l] = n
				m := ownName.FindStringSubmatch(names.Demangle(n))
				if m == nil || strings.HasPrefix(m[1], "Kernel") || m[1] == "kentry" || m[1] == "kernel" {
					continue
				}
				if len(m[1])+5 <= w {
					checked++
					if !strings.Contains(l, m[1]) {
						t.Errorf("%s at %d: label %q of %q lost the function's name %q", trace, w, l, n, m[1])
					}
				}
			}
		}
	}
	if checked < 300 {
		t.Fatalf("only %d own names checked; want at least 300", checked)
	}
}
