package cli

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tracetab/tracetab/internal/editdist"
	"github.com/tracetab/tracetab/internal/table"
	"github.com/tracetab/tracetab/internal/units"
)

// exactArgs is cobra.ExactArgs with a usage exit code.
func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usageErrorf("%s takes %s, got %d; see 'tracetab %s --help'", cmd.Name(), nArgs(n), len(args), cmd.Name())
		}
		return nil
	}
}

func nArgs(n int) string {
	switch n {
	case 0:
		return "no argument"
	case 1:
		return "1 argument"
	}
	return strconv.Itoa(n) + " arguments"
}

// rangeArgs is cobra.RangeArgs with a usage exit code.
func rangeArgs(lo, hi int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < lo || len(args) > hi {
			return usageErrorf("%s takes %d to %d arguments, got %d; see 'tracetab %s --help'", cmd.Name(), lo, hi, len(args), cmd.Name())
		}
		return nil
	}
}

func checkFormat(f string, allowed ...string) error {
	for _, a := range allowed {
		if f == a {
			return nil
		}
	}
	return usageErrorf("unknown --format %q: use %s", f, strings.Join(allowed, ", "))
}

// The one rule for durations, the same for every flag (and for rules and
// budget files): a duration needs its unit, ns, us (or µs), ms or s;
// a bare number is refused. durationFlags are the string flags that hold
// a duration; duration-typed flags use durationValue.
var durationFlags = map[string]bool{"max-step-time": true}

// percentFlags hold a percentage, written 40 or 40%; the % is dropped
// before the command sees the value.
var percentFlags = map[string]bool{"max-gpu-idle": true, "min-skew": true, "fail-on-skew": true}

// checkFlagValues applies the duration and percentage rules to the flags
// of cmd that were set, naming the flag and the accepted forms.
func checkFlagValues(cmd *cobra.Command) error {
	var err error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if err != nil {
			return
		}
		v := f.Value.String()
		if t := f.Value.Type(); t == "float64" || t == "float32" {
			// strconv reads NaN and Inf: no threshold is met by NaN, so a
			// gate given one would never fail
			if x, e := strconv.ParseFloat(v, 64); e != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				err = usageErrorf("--%s %q: give a finite number", f.Name, v)
			}
			return
		}
		if f.Value.Type() != "string" {
			return
		}
		switch {
		case durationFlags[f.Name]:
			if _, e := units.ParseDur(v); e != nil {
				err = usageErrorf("--%s: %v", f.Name, e)
			}
		case percentFlags[f.Name]:
			num := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "%"))
			if p, e := strconv.ParseFloat(num, 64); e != nil || math.IsNaN(p) || p < 0 || p > 100 {
				err = usageErrorf("--%s %q: give a percentage from 0 to 100, e.g. 40 or 40%%", f.Name, v)
				return
			}
			f.Value.Set(num)
		}
	})
	return err
}

// durationValue is a time.Duration flag under the duration rule.
type durationValue struct{ d *time.Duration }

func newDurationValue(d *time.Duration) *durationValue { return &durationValue{d} }

func (v *durationValue) String() string {
	if v.d == nil || *v.d == 0 {
		return "0s"
	}
	return units.Dur(int64(*v.d))
}

func (v *durationValue) Set(s string) error {
	ns, err := units.ParseDur(s)
	if err != nil {
		return err
	}
	*v.d = time.Duration(ns)
	return nil
}

func (v *durationValue) Type() string { return "duration" }

// forms says what a flag of a pflag type accepts.
func forms(typ string) string {
	switch typ {
	case "int", "int64", "int32":
		return "a whole number, e.g. 20"
	case "uint", "uint64":
		return "a whole number from 0, e.g. 20"
	case "float64":
		return "a number, e.g. 1.5"
	case "bool":
		return "true or false (or the flag alone for true)"
	case "duration":
		return units.DurForms
	}
	return ""
}

var (
	invalidArg  = regexp.MustCompile(`^invalid argument "(.*)" for "(?:-\w, )?--([\w-]+)" flag: (.*)$`)
	unknownFlag = regexp.MustCompile(`^unknown (?:shorthand )?flag: '?(-{1,2}[\w-]+)'?`)
	needsArg    = regexp.MustCompile(`^flag needs an argument: (?:'\w' in )?-{1,2}([\w-]+)`)
)

// flagError rewrites pflag's errors for a person: a bad value names the
// flag and the forms it accepts; an unknown flag gets the closest names
// of cmd's flags, as cobra does for commands.
func flagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	if m := invalidArg.FindStringSubmatch(msg); m != nil {
		typ := ""
		if f := cmd.Flags().Lookup(m[2]); f != nil {
			typ = f.Value.Type()
		}
		why := m[3]
		if typ == "duration" {
			// units.ParseDur's own message already names the forms
			return usageErrorf("--%s: %s", m[2], why)
		}
		if fo := forms(typ); fo != "" {
			return usageErrorf("--%s %q: want %s", m[2], m[1], fo)
		}
		return usageErrorf("--%s %q: %s", m[2], m[1], why)
	}
	if m := unknownFlag.FindStringSubmatch(msg); m != nil {
		name := strings.TrimLeft(m[1], "-")
		path := cmd.CommandPath() // "tracetab" or "tracetab table"
		if s := suggestFlags(cmd, name); len(s) > 0 {
			return usageErrorf("unknown flag %s for '%s'; did you mean %s?", m[1], path, strings.Join(s, " or "))
		}
		return usageErrorf("unknown flag %s for '%s'; see '%s --help'", m[1], path, path)
	}
	if m := needsArg.FindStringSubmatch(msg); m != nil {
		if f := cmd.Flags().Lookup(m[1]); f != nil {
			if fo := forms(f.Value.Type()); fo != "" {
				return usageErrorf("--%s needs a value: %s", m[1], fo)
			}
			return usageErrorf("--%s needs a value (%s)", m[1], f.Usage)
		}
	}
	return usageErrorf("%v", err)
}

// suggestFlags lists the flags of cmd (its own and inherited) within an
// edit distance of 2 of name, or that it is a prefix of, closest first.
// didYouMean is "; did you mean X?" (up to three of cands, the closest
// first) for a mistyped value v, or "" when none is close.
func didYouMean(v string, cands []string) string {
	type cand struct {
		s string
		d int
	}
	var cs []cand
	for _, c := range cands {
		if d := editdist.Distance(v, c); d <= max(2, len(v)/5) || (len(v) >= 3 && strings.HasPrefix(c, v)) {
			cs = append(cs, cand{c, d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d || (cs[i].d == cs[j].d && cs[i].s < cs[j].s) })
	if len(cs) == 0 {
		return ""
	}
	var out []string
	for i := 0; i < len(cs) && i < 3; i++ {
		out = append(out, cs[i].s)
	}
	return "; did you mean " + strings.Join(out, " or ") + "?"
}

func suggestFlags(cmd *cobra.Command, name string) []string {
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	seen := map[string]bool{}
	see := func(f *pflag.Flag) {
		if f.Hidden || seen[f.Name] {
			return
		}
		seen[f.Name] = true
		d := editdist.Distance(name, f.Name)
		if d <= 2 || (len(name) >= 3 && strings.HasPrefix(f.Name, name)) {
			cs = append(cs, cand{"--" + f.Name, d})
		}
	}
	cmd.Flags().VisitAll(see)
	cmd.InheritedFlags().VisitAll(see)
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].name < cs[j].name
	})
	var out []string
	for i, c := range cs {
		if i == 3 {
			break
		}
		out = append(out, c.name)
	}
	return out
}

// torchFlagHelp is the --torch help of every command that takes it.
const torchFlagHelp = "whose table() rules and layout to print, e.g. 1.13.1, 2.6.0, 2.14.1 (default: the recording torch, from the trace's era)"

// parseTorch reads --torch the same way for every command: "" is the zero
// Version (each trace's recording torch, judged from its era, see
// table.RecordingOf); a version whose rules tracetab does not know is a
// usage error that lists the known ones.
func parseTorch(s string) (table.Version, error) {
	if s == "" {
		return table.Version{}, nil
	}
	v, err := table.ParseVersion(s)
	if err != nil {
		return table.Version{}, usageErrorf("--torch: %v", err)
	}
	return v, nil
}
