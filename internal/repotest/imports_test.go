package repotest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// goPackage is what the import rules read of `go list -json`.
type goPackage struct {
	ImportPath string
	Imports    []string // of the non-test files
	Module     *struct{ Path string }
}

// testSupport are the packages only tests may import (their own code
// may import one another). Any package whose own code imports "testing"
// must be one of them (TestImportRules checks it), so a new helper for
// the tests cannot slip in as an analysis package.
var testSupport = []string{"benchtrace", "golden", "rawjson", "repotest", "testcache", "testenv", "testtrace"}

// role is a package's part in the layering, by rule: the command line
// (cli), a view (render/...), the shared text layout, test support, the
// program (cmd/...), or else an analysis package. An internal package
// added tomorrow is an analysis package unless it lives under render/.
func role(mod, path string) string {
	rel, ok := strings.CutPrefix(path, mod+"/")
	switch {
	case !ok:
		return "other"
	case strings.HasPrefix(rel, "cmd/"):
		return "cmd"
	case rel == "internal/cli":
		return "cli"
	case rel == "internal/render" || strings.HasPrefix(rel, "internal/render/"):
		return "view"
	case rel == "internal/layout":
		return "layout"
	case strings.HasPrefix(rel, "internal/") && slices.Contains(testSupport, strings.TrimPrefix(rel, "internal/")):
		return "test support"
	case strings.HasPrefix(rel, "internal/"):
		return "analysis"
	}
	return "other"
}

// importViolations returns one line per import of pkgs (their non-test
// code) that breaks the rules:
//   - an analysis package imports no view and not cli;
//   - a view does not import cli;
//   - nothing but cmd/... imports cli;
//   - only test support imports test support (tests import it freely:
//     their imports are not read here);
//   - a package whose code imports "testing" is test support.
func importViolations(mod string, pkgs []goPackage) []string {
	var out []string
	for _, p := range pkgs {
		from := role(mod, p.ImportPath)
		if from == "other" {
			continue
		}
		for _, imp := range p.Imports {
			to := role(mod, imp)
			bad := ""
			switch {
			case imp == "testing" && from != "test support":
				bad = "its code imports testing: it is test support (add it to testSupport) or the import belongs in a _test.go file"
			case to == "cli" && from != "cmd":
				bad = "only cmd/tracetab imports internal/cli"
			case from == "analysis" && to == "view":
				bad = "an analysis package imports no view (internal/render/...)"
			case to == "test support" && from != "test support":
				bad = "test support is imported only from _test.go files"
			}
			if bad != "" {
				out = append(out, p.ImportPath+" imports "+imp+": "+bad)
			}
		}
	}
	return out
}

// TestImportRules reads `go list -json ./...` and fails on an import that
// breaks the layering (importViolations).
func TestImportRules(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Skip("no go.mod here: not a checkout")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Imports,Module", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []goPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p goPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 20 || pkgs[0].Module == nil {
		t.Fatalf("go list gave %d packages; want the repository's", len(pkgs))
	}
	mod := pkgs[0].Module.Path
	roles := map[string]int{}
	for _, p := range pkgs {
		roles[role(mod, p.ImportPath)]++
	}
	if roles["cmd"] == 0 || roles["cli"] != 1 || roles["view"] < 10 || roles["analysis"] < 10 || roles["test support"] != len(testSupport) {
		t.Fatalf("roles %v: want cmd, cli, views, analysis packages and the %d test-support packages %v", roles, len(testSupport), testSupport)
	}
	for _, v := range importViolations(mod, pkgs) {
		t.Error(v)
	}
}

// TestImportRulesCatch: each rule fails an import that breaks it, and
// passes the imports the layering allows.
func TestImportRulesCatch(t *testing.T) {
	const m = "example.com/m"
	p := func(path string, imports ...string) goPackage {
		q := goPackage{ImportPath: m + "/" + path}
		for _, i := range imports {
			if i != "testing" && i != "fmt" {
				i = m + "/" + i
			}
			q.Imports = append(q.Imports, i)
		}
		return q
	}
	for _, c := range []struct {
		pkg goPackage
		bad bool
	}{
		{p("internal/gaps", "internal/trace", "internal/stats", "fmt"), false},
		{p("internal/render/gapsview", "internal/gaps", "internal/layout", "internal/render/viewkit"), false},
		{p("internal/cli", "internal/gaps", "internal/render/gapsview"), false},
		{p("cmd/tracetab", "internal/cli"), false},
		{p("internal/testcache", "internal/testenv", "internal/parse"), false},
		{p("internal/golden", "testing"), false},
		{p("internal/gaps", "internal/render/gapsview"), true},
		{p("internal/newthing", "internal/render/viewkit"), true}, // a new package is an analysis package
		{p("internal/gaps", "internal/cli"), true},
		{p("internal/render/gapsview", "internal/cli"), true},
		{p("internal/layout", "internal/cli"), true},
		{p("internal/gaps", "internal/testenv"), true},
		{p("internal/render/gapsview", "internal/golden"), true},
		{p("internal/cli", "internal/rawjson"), true},
		{p("cmd/tracetab", "internal/testcache"), true},
		{p("internal/newhelper", "testing"), true},
	} {
		v := importViolations(m, []goPackage{c.pkg})
		if (len(v) > 0) != c.bad {
			t.Errorf("%s importing %v: violations %q, want bad=%v", c.pkg.ImportPath, c.pkg.Imports, v, c.bad)
		}
	}
}
