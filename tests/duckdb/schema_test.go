package duckdb_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/testenv"
)

// docColumn is one row of a dataset's table in docs/schema.md.
type docColumn struct {
	name, typ string
	never     bool // documented as never null
}

var (
	docHeading = regexp.MustCompile("^## ([a-z]+)$")
	docRow     = regexp.MustCompile("^\\| `([a-z0-9_]+)` \\| ([A-Z\\[\\]]+) \\| ([^|]+) \\|")
)

// documented reads docs/schema.md: dataset -> its columns in order.
func documented(t *testing.T) map[string][]docColumn {
	b, err := os.ReadFile(filepath.Join(testenv.Root(), "docs", "schema.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]docColumn{}
	cur := ""
	for _, line := range strings.Split(string(b), "\n") {
		if m := docHeading.FindStringSubmatch(line); m != nil {
			cur = m[1]
			continue
		}
		if m := docRow.FindStringSubmatch(line); m != nil && cur != "" {
			out[cur] = append(out[cur], docColumn{m[1], m[2], strings.TrimSpace(m[3]) == "never"})
		}
	}
	return out
}

// TestSchemaAsDocumented: every dataset has exactly the columns
// docs/schema.md lists, in its order and of its type (as DuckDB reads the
// files), and a column documented as never null has no null in any
// exported trace.
func TestSchemaAsDocumented(t *testing.T) {
	t.Parallel()
	dir, _, _ := exported(t)
	db := openDB(t, dir)
	doc := documented(t)
	for _, d := range datasets {
		cols := doc[d]
		if len(cols) == 0 {
			t.Errorf("docs/schema.md documents no column of %s", d)
			continue
		}
		// the files' own columns: without the Hive directory keys
		got := rows(t, db, fmt.Sprintf("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet('%s/%s/**/*.parquet', hive_partitioning = false))", dir, d))
		if len(got) != len(cols) {
			t.Errorf("%s: %d columns in the files, %d documented", d, len(got), len(cols))
		}
		for i := 0; i < min(len(got), len(cols)); i++ {
			if got[i][0] != cols[i].name || got[i][1] != cols[i].typ {
				t.Errorf("%s column %d: the files have %s %s, docs/schema.md %s %s", d, i, got[i][0], got[i][1], cols[i].name, cols[i].typ)
			}
		}
		var checks []string
		for _, c := range cols {
			if c.never {
				checks = append(checks, fmt.Sprintf("count(*) FILTER (WHERE %q IS NULL)", c.name))
			}
		}
		nulls := rows(t, db, fmt.Sprintf("SELECT %s FROM %s", strings.Join(checks, ", "), d))[0]
		k := 0
		for _, c := range cols {
			if !c.never {
				continue
			}
			if nulls[k] != "0" {
				t.Errorf("%s.%s is documented never null; %s rows have null", d, c.name, nulls[k])
			}
			k++
		}
		n := one(t, db, fmt.Sprintf("SELECT count(*) FROM %s", d))
		t.Logf("%s: %d columns as documented, %s rows", d, len(cols), n)
	}
}
