package diffview

import (
	"encoding/xml"
	"io"
	"strings"

	"github.com/tracetab/tracetab/internal/diff"
	"github.com/tracetab/tracetab/internal/units"
)

// JUnit writes a <testsuites> document: one test case per rule (or
// budget), failing with its violations or because it measured nothing, and
// one "environment" case listing the mismatches (failing under
// --require-same-env).
func JUnit(w io.Writer, suite string, g *diff.Gate) error {
	type failure struct {
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	}
	type skipped struct {
		Message string `xml:"message,attr"`
	}
	type testcase struct {
		Name      string   `xml:"name,attr"`
		Classname string   `xml:"classname,attr"`
		Failure   *failure `xml:"failure,omitempty"`
		Skipped   *skipped `xml:"skipped,omitempty"`
		SystemOut string   `xml:"system-out,omitempty"`
	}
	type testsuite struct {
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Skipped  int        `xml:"skipped,attr"`
		Cases    []testcase `xml:"testcase"`
	}
	type testsuites struct {
		XMLName  xml.Name    `xml:"testsuites"`
		Name     string      `xml:"name,attr"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Suites   []testsuite `xml:"testsuite"`
	}
	ts := testsuite{Name: suite}
	for _, n := range g.Rules {
		tc := testcase{Name: n, Classname: suite, SystemOut: "checked " + units.Plural(g.Checked[n], "row", "rows")}
		var msgs []string
		for _, v := range g.Violations {
			if v.Rule == n {
				msgs = append(msgs, v.Msg)
			}
		}
		for _, x := range g.NA {
			if x.Rule != n {
				continue
			}
			if g.AllowMissing {
				tc.Skipped = &skipped{Message: "n/a: " + x.Reason}
			} else {
				msgs = append(msgs, "n/a: "+x.Reason)
			}
		}
		if len(msgs) > 0 {
			tc.Failure = &failure{Message: units.Plural(len(msgs), "failure", "failures") + ": " + middle(msgs[0], 200), Text: strings.Join(msgs, "\n")}
		}
		ts.Cases = append(ts.Cases, tc)
	}
	env := testcase{Name: "environment", Classname: suite, SystemOut: "traces comparable: no mismatch"}
	if len(g.Mismatches) > 0 {
		var lines []string
		for _, m := range g.Mismatches {
			lines = append(lines, mismatchText(m, false))
		}
		env.SystemOut = strings.Join(lines, "\n")
		if g.RequireSameEnv {
			env.Failure = &failure{Message: units.Plural(len(lines), "environment mismatch", "environment mismatches"), Text: env.SystemOut}
		}
	}
	if suite == "tracetab.diff" {
		ts.Cases = append(ts.Cases, env)
	}
	for _, c := range ts.Cases {
		ts.Tests++
		if c.Failure != nil {
			ts.Failures++
		}
		if c.Skipped != nil {
			ts.Skipped++
		}
	}
	doc := testsuites{Name: suite, Tests: ts.Tests, Failures: ts.Failures, Suites: []testsuite{ts}}
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, xml.Header+string(b)+"\n")
	return err
}

func outcomeResult(o diff.Outcome) string {
	switch {
	case o.Missing != "":
		return "n/a"
	case len(o.Failed) > 0:
		return "FAIL"
	}
	return "ok"
}
