// Package dataset reads back what tracetab export wrote: the Parquet files
// of one or many exports under a directory tree, checked file by file
// (a Parquet file, written by tracetab, of this schema version, of the
// dataset its directory names), so that a command can reduce them as it
// reduces the traces themselves. It prints nothing and decides no exit
// code: a bad file is an *Error naming it.
package dataset

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tracetab/tracetab/internal/export"
)

// Error is a dataset that cannot be read: a missing directory, or a file
// that is not a Parquet file of this schema (truncated, corrupt, foreign,
// of another version). Path names the file or directory.
type Error struct {
	Path string
	Msg  string
}

func (e *Error) Error() string { return e.Path + ": " + e.Msg }

// EmptyError is a tree that holds no file of the dataset asked for.
type EmptyError struct {
	Root, Dataset string
}

func (e *EmptyError) Error() string {
	return fmt.Sprintf("%s holds no %s dataset (%s/**/*.parquet under an export's directory): export the traces with 'tracetab export --to DIR' first",
		e.Root, e.Dataset, e.Dataset)
}

// Files lists the Parquet files of the given datasets under root (one
// export's DIR, or a tree of many), sorted, per dataset. A file belongs to
// the dataset its nearest dataset-named directory names (the Hive
// key=value directories below it apart). Names starting with "." or "_"
// are skipped, as engines skip them (an export's temporary files and its
// marker); every export marker met is checked for its schema.
func Files(root string, datasets ...string) (map[string][]string, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, &Error{Path: root, Msg: errText(err)}
	}
	if !st.IsDir() {
		return nil, &Error{Path: root, Msg: "not a directory: give the directory an export wrote (tracetab export --to DIR), or a tree of them"}
	}
	out := map[string][]string{}
	walk := WalkRoot(root)
	err = filepath.WalkDir(walk, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return &Error{Path: p, Msg: errText(err)}
		}
		name := d.Name()
		if p != walk && name == export.MarkerName {
			return checkMarker(p)
		}
		if p != walk && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(name, ".parquet") {
			return nil
		}
		if ds := datasetOf(root, p); slices.Contains(datasets, ds) {
			out[ds] = append(out[ds], p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, l := range out {
		slices.Sort(l)
	}
	return out, nil
}

// datasetOf is the dataset of a file: the nearest directory above it,
// below root, that is not a Hive key=value directory; "" when none.
func datasetOf(root, path string) string {
	rel, err := filepath.Rel(root, filepath.Dir(path))
	if err != nil || rel == "." {
		return filepath.Base(root)
	}
	parts := strings.Split(rel, string(filepath.Separator))
	for k := len(parts) - 1; k >= 0; k-- {
		if !strings.Contains(parts[k], "=") {
			return parts[k]
		}
	}
	return filepath.Base(root)
}

// checkMarker refuses an export directory of another schema.
func checkMarker(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return &Error{Path: path, Msg: errText(err)}
	}
	var m struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return &Error{Path: path, Msg: "not an export marker: " + err.Error()}
	}
	if !slices.Contains(export.ReadableSchemas, m.Schema) {
		return &Error{Path: path, Msg: fmt.Sprintf("an export of schema %s, not %s: export the traces again with this tracetab", m.Schema, export.Schema)}
	}
	return nil
}

// errText is an OS error without the path it repeats.
func errText(err error) string {
	var pe *fs.PathError
	if ok := asPathError(err, &pe); ok {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

func asPathError(err error, pe **fs.PathError) bool {
	p, ok := err.(*fs.PathError)
	if ok {
		*pe = p
	}
	return ok
}

// WalkRoot is dir as filepath.WalkDir should be given it: WalkDir reads
// its root with Lstat, so a symbolic link to a directory (a job's traces
// linked into place) was walked as a file and found empty; with a
// trailing separator the link is followed. Links met below the root are
// not followed (no cycles).
func WalkRoot(dir string) string {
	if st, err := os.Lstat(dir); err == nil && st.Mode()&fs.ModeSymlink != 0 && !strings.HasSuffix(dir, string(filepath.Separator)) {
		return dir + string(filepath.Separator)
	}
	return dir
}
