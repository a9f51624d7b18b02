// Package duckdb_test queries tracetab export's Parquet files with DuckDB.
// It is a module of its own (the DuckDB driver needs cgo; the tracetab
// binary stays pure Go): make test runs it after the main module's tests.
package duckdb_test

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/tracetab/tracetab/internal/cli"
	"github.com/tracetab/tracetab/internal/testenv"
)

// run calls tracetab as a user would.
func run(t testing.TB, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Main(args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

// jsonOf runs tracetab with --format json and decodes the document.
func jsonOf(t testing.TB, v any, args ...string) {
	t.Helper()
	out, stderr, code := run(t, append(args, "--format", "json")...)
	if code != 0 {
		t.Fatalf("tracetab %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("tracetab %s: %v", strings.Join(args, " "), err)
	}
}

// fleet is the shared traces (and the sample) exported once per test
// binary.
var fleet struct {
	once   sync.Once
	dir    string
	traces []string
	ids    map[string]string // path -> trace id
	err    error
}

// sharedTraces lists the real traces of ../shared (the top-level files:
// not-traces/ holds files that are not profiler traces).
func sharedTraces(t testing.TB) []string {
	d := testenv.Shared(t)
	var out []string
	for _, pat := range []string{"*.json", "*.json.gz"} {
		m, _ := filepath.Glob(filepath.Join(d, "traces", pat))
		out = append(out, m...)
	}
	if len(out) == 0 {
		t.Fatal("no shared traces")
	}
	return out
}

func sample() string { return filepath.Join(testenv.Root(), "testdata", "sample.pt.trace.json") }

// exported returns the export of the sample and every shared trace.
func exported(t testing.TB) (dir string, traces []string, ids map[string]string) {
	t.Helper()
	traces = append([]string{sample()}, sharedTraces(t)...)
	fleet.once.Do(func() {
		dir, err := os.MkdirTemp("", "tracetab-duckdb-")
		if err != nil {
			fleet.err = err
			return
		}
		fleet.dir = dir
		var out, errb bytes.Buffer
		args := append([]string{"export", "--to", dir, "--jobs", "2", "--format", "json"}, traces...)
		if code := cli.Main(args, strings.NewReader(""), &out, &errb); code != 0 {
			fleet.err = fmt.Errorf("export: exit %d: %s", code, errb.String())
			return
		}
		var sum struct {
			Files []struct {
				Path    string `json:"path"`
				TraceID string `json:"trace_id"`
			} `json:"files"`
		}
		if err := json.Unmarshal(out.Bytes(), &sum); err != nil {
			fleet.err = err
			return
		}
		fleet.ids = map[string]string{}
		for _, f := range sum.Files {
			fleet.ids[f.Path] = f.TraceID
		}
	})
	if fleet.err != nil {
		t.Fatal(fleet.err)
	}
	return fleet.dir, traces, fleet.ids
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fleet.dir != "" {
		os.RemoveAll(fleet.dir)
	}
	os.Exit(code)
}

// datasets are the views every test queries, over an export's DIR.
var datasets = []string{"events", "ops", "kernels", "steps", "gaps", "memory", "collectives", "ranks", "trend", "modules", "categories", "sequences", "queues", "traces"}

// openDB opens an in-memory DuckDB with one view per dataset of dir, as
// the README's queries read them.
func openDB(t testing.TB, dir string) *sql.DB {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, d := range datasets {
		q := fmt.Sprintf("CREATE VIEW %s AS SELECT * FROM read_parquet('%s/%s/**/*.parquet', hive_partitioning = true, union_by_name = true)",
			d, dir, d)
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return db
}

// rows runs a query and returns every row as strings (NULL as "NULL").
func rows(t testing.TB, db *sql.DB, q string, args ...any) [][]string {
	t.Helper()
	rs, err := db.Query(q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	var out [][]string
	for rs.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = text(v)
		}
		out = append(out, row)
	}
	if err := rs.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

// text writes a value DuckDB returned: NULL, numbers in full.
func text(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case *big.Int:
		return x.String()
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'f', -1, 32)
	case []byte:
		return string(x)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// one runs a query that returns one value.
func one(t testing.TB, db *sql.DB, q string, args ...any) string {
	t.Helper()
	r := rows(t, db, q, args...)
	if len(r) != 1 || len(r[0]) != 1 {
		t.Fatalf("%s: want one value, got %v", q, r)
	}
	return r[0][0]
}
