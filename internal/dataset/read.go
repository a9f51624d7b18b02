package dataset

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/parquet-go/parquet-go"

	"github.com/tracetab/tracetab/internal/export"
)

// ReadRows reads every row of one file of a dataset, after checking that
// it is one: a Parquet file whose key-value metadata names a schema
// version of export.ReadableSchemas and this dataset, with the columns of T. A file that fails any
// check, or whose pages cannot be decoded, is an *Error naming it; the
// reader never panics on it.
func ReadRows[T any](path, ds string) (rows []T, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{Path: path, Msg: errText(err)}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, &Error{Path: path, Msg: errText(err)}
	}
	defer func() {
		if v := recover(); v != nil {
			rows, err = nil, &Error{Path: path, Msg: fmt.Sprintf("corrupt Parquet file (%v): export the trace again", v)}
		}
	}()
	if err := footerFits(f, st.Size()); err != nil {
		return nil, &Error{Path: path, Msg: err.Error()}
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return nil, &Error{Path: path, Msg: fmt.Sprintf("not a readable Parquet file (%v): truncated or corrupt? export the trace again", err)}
	}
	if err := check[T](pf, ds); err != nil {
		return nil, &Error{Path: path, Msg: err.Error()}
	}
	r := parquet.NewGenericReader[T](pf)
	defer r.Close()
	rows = make([]T, 0, min(pf.NumRows(), 1<<16))
	buf := make([]T, max(1, min(pf.NumRows(), 1024))) // a file of one row (ranks, trend) needs no more
	for {
		n, err := r.Read(buf)
		rows = append(rows, buf[:n]...)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, &Error{Path: path, Msg: fmt.Sprintf("corrupt Parquet file (%v): export the trace again", err)}
		}
		if n == 0 {
			break
		}
	}
	if int64(len(rows)) != pf.NumRows() {
		return nil, &Error{Path: path, Msg: fmt.Sprintf("corrupt Parquet file: %d rows read of the %d its footer counts", len(rows), pf.NumRows())}
	}
	return rows, nil
}

// check says why pf is not a file of dataset ds of this schema.
func check[T any](pf *parquet.File, ds string) error {
	v, ok := pf.Lookup("tracetab.schema")
	if !ok {
		return fmt.Errorf("not written by tracetab export (no tracetab.schema in its metadata)")
	}
	if !slices.Contains(export.ReadableSchemas, v) {
		return fmt.Errorf("schema %s, not %s: export the trace again with this tracetab", v, export.Schema)
	}
	if got, _ := pf.Lookup("tracetab.dataset"); got != ds {
		return fmt.Errorf("a file of the %q dataset under the %s directory", got, ds)
	}
	if want := parquet.SchemaOf(new(T)); !parquet.EqualNodes(want, pf.Schema()) {
		return fmt.Errorf("its columns are not those of %s %s", ds, v)
	}
	return nil
}
