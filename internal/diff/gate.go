package diff

// Gate is the verdict of diff or check: what was checked, what failed,
// what could not be measured, and how unmeasured results and environment
// mismatches count.
type Gate struct {
	Rules          []string       // rule or budget texts, in order
	Checked        map[string]int // rows each rule looked at
	Violations     []Violation
	NA             []NA
	Mismatches     []Mismatch
	AllowMissing   bool // n/a results are warnings, not failures
	RequireSameEnv bool // a mismatch fails the gate
}

// Failed reports whether the gate fails (exit 1).
func (g *Gate) Failed() bool {
	return len(g.Violations) > 0 || (len(g.NA) > 0 && !g.AllowMissing) || (len(g.Mismatches) > 0 && g.RequireSameEnv)
}
