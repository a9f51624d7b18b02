package diff

import (
	"regexp"
	"slices"
	"strings"

	"github.com/tracetab/tracetab/internal/modules"
	"github.com/tracetab/tracetab/internal/trace"
)

// ModuleMemoryReason is why the memory metrics are n/a on module rows.
const ModuleMemoryReason = "memory is a metric of op rows: use --by op"

// addModules adds one trace's module rows (--by module): one row per
// module path (modules.Tree.Path), with a sample per step group (or one
// for the whole trace) of the module's frames that start in it, each
// divided by the group's step count as op rows are; every module of the
// tree is a row, zero in the steps where it did not run. It returns the
// module work outside the steps (count: frames, self_cpu: host self,
// self_cuda: device self).
func addModules(a *acc, t *trace.Trace, steps []trace.Step, groups [][2]int, base int) vals {
	nb := max(len(groups), 1)
	groupOf := make([]int, len(steps))
	for gi, g := range groups {
		for k := g[0]; k <= g[1]; k++ {
			groupOf[k] = gi
		}
	}
	bucket := func(start int64) int {
		if groups == nil {
			return 0
		}
		if k := trace.StepAt(steps, start); k >= 0 {
			return groupOf[k]
		}
		return -1
	}
	s := modules.BuildSplit(t, nb, bucket)
	var outside vals
	for n := range s.Nodes {
		path := s.Path(n)
		r := a.add(path, false, base, vals{})
		if p := s.Nodes[n].Parent; p >= 0 {
			r.parent = s.Path(p)
		}
		for b, v := range s.Buckets[n] {
			if v.Occurrences == 0 {
				continue
			}
			x := moduleVals(v)
			if groups != nil {
				if g := groups[b]; g[1] > g[0] {
					size := float64(g[1] - g[0] + 1)
					for j := range x {
						x[j] /= size
					}
				}
			}
			a.add(path, false, base+b, x)
		}
		o := s.Outside[n]
		outside[iCount] += float64(o.Occurrences)
		outside[iSelfCPU] += float64(o.HostSelf)
		outside[iSelfCuda] += float64(o.DeviceSelf)
	}
	return outside
}

// moduleVals are a module's numbers as the op metrics that mean the same
// (modules.ParseKey): count occurrences, cpu_total and self_cpu its host
// total and self time, cuda_total and self_cuda its device total and self
// time.
func moduleVals(v modules.Values) vals {
	return vals{float64(v.DeviceSelf), float64(v.DeviceTotal), float64(v.HostSelf), float64(v.HostTotal), float64(v.Occurrences), 0, 0}
}

// AmbiguousModuleError is a module name that names several module rows.
type AmbiguousModuleError struct {
	Name  string
	Paths []string
}

func (e *AmbiguousModuleError) Error() string {
	return "module " + e.Name + " is at " + itoa(len(e.Paths)) + " paths (" + strings.Join(e.Paths, ", ") + "): give the path"
}

// ModuleMatch resolves the match of a rule or budget on module rows (keys,
// the module paths): a match written as a path selects that row; as a
// module name (the last part of a path), the one row of that name, or an
// AmbiguousModuleError when several rows have it; otherwise it stays a
// regular expression over the paths. nil stays nil.
func ModuleMatch(re *regexp.Regexp, keys []string) (*regexp.Regexp, error) {
	if re == nil {
		return nil, nil
	}
	lit := re.String()
	exact := func(p string) *regexp.Regexp { return regexp.MustCompile("^" + regexp.QuoteMeta(p) + "$") }
	if slices.Contains(keys, lit) {
		return exact(lit), nil
	}
	var named []string
	for _, k := range keys {
		if k[strings.LastIndexByte(k, '/')+1:] == lit && !slices.Contains(named, k) {
			named = append(named, k)
		}
	}
	switch len(named) {
	case 0:
		return re, nil
	case 1:
		return exact(named[0]), nil
	}
	slices.Sort(named)
	return nil, &AmbiguousModuleError{Name: lit, Paths: named}
}

// Keys lists the row keys of sides, each once, in order.
func Keys(sides ...*Side) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range sides {
		for _, r := range s.Rows {
			if !seen[r.Key] {
				seen[r.Key] = true
				out = append(out, r.Key)
			}
		}
	}
	return out
}
