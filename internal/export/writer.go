package export

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/compress/snappy"

	"github.com/tracetab/tracetab/internal/atomicfile"
	"github.com/tracetab/tracetab/internal/pqcol"
)

// RowGroupRows is the default number of rows of a row group: between
// DuckDB's own 122,880 and the million rows past which a reader holds
// much for one group; a trace of millions of events still gets several
// groups, which engines read in parallel and prune by their statistics.
const RowGroupRows = 512 * 1024

// Codecs are the compressions an export can use.
var Codecs = []string{"zstd", "snappy"}

func codecOf(name string) (compress.Codec, error) {
	switch name {
	case "", "zstd":
		return newZstdCodec(runtime.GOMAXPROCS(0) + 2), nil
	case "snappy":
		return &snappy.Codec{}, nil
	}
	return nil, fmt.Errorf("unknown compression %q: use %s", name, strings.Join(Codecs, " or "))
}

// HiveNull is the partition value of a missing key (Hive's convention,
// which Spark, Trino and DuckDB read as null).
const HiveNull = "__HIVE_DEFAULT_PARTITION__"

// PartitionKeys are the keys --partition accepts.
var PartitionKeys = []string{"trace", "date", "rank"}

// fileSpec says where one trace's file of one dataset goes and how it is
// written.
type fileSpec struct {
	dir       string   // the export's DIR
	keys      []string // partition keys, in order
	vals      map[string]string
	traceID   string
	part      string // "" or "-N" for a dataset written in several files
	codec     compress.Codec
	rowGroups int64
	version   string
}

// path is DIR/dataset/key=value/.../<trace id><part>.parquet.
func (s *fileSpec) path(dataset string) string {
	parts := []string{s.dir, dataset}
	for _, k := range s.keys {
		parts = append(parts, k+"="+s.vals[k])
	}
	return filepath.Join(append(parts, s.traceID+s.part+".parquet")...)
}

// fileWriter writes one Parquet file of rows of type T. The file is left
// under a temporary name by finish: the caller commits it (renames it into
// place) once every file of the trace is written, or aborts it; a
// cancelled ctx or an error removes it.
type fileWriter[T any] struct {
	ctx  context.Context
	f    *outFile
	cols *pqcol.Rows[T]            // a flat row type: written by columns (pqcol)
	w    *parquet.GenericWriter[T] // one pqcol does not take (lists)
	rows int64
}

// byColumns turns pqcol's Rows on for the row types it takes; tests turn
// it off to compare with parquet-go's writer.
var byColumns = true

func newFileWriter[T any](ctx context.Context, s *fileSpec, dataset string) (*fileWriter[T], error) {
	f, err := createOut(s.path(dataset))
	if err != nil {
		return nil, err
	}
	fw := &fileWriter[T]{ctx: ctx, f: f}
	if byColumns {
		// parquet-go's GenericWriter took 0.4 s of CPU for these datasets
		// on the 200 MB export-shape trace (its rows' deconstruction, the
		// dictionaries' hashing); pqcol's Rows gathers each column of a
		// block of rows at once
		// (a list or nested column: parquet-go's writer)
		if meta, err := templateOf[T](s, dataset); err == nil {
			if fw.cols, err = pqcol.NewRows[T](f, meta, s.codec, s.rowGroups); err == nil {
				return fw, nil
			}
		}
	}
	fw.w = parquet.NewGenericWriter[T](f, s.options(dataset)...)
	return fw, nil
}

// options are the writer options of a dataset's file.
func (s *fileSpec) options(dataset string) []parquet.WriterOption {
	return []parquet.WriterOption{
		parquet.Compression(s.codec),
		parquet.MaxRowsPerRowGroup(s.rowGroups),
		parquet.DataPageVersion(1), // the page form every engine reads
		// parquet-go sizes each column's buffer by this (256 KiB by
		// default): the datasets it still writes (ranks, trend, traces)
		// have a row per trace, and their 256 KiB buffers were 4 ms of
		// allocation and collection per trace of a 1,024-rank export
		parquet.PageBufferSize(16 << 10),
		parquet.CreatedBy("tracetab", s.version, ""),
		parquet.KeyValueMetadata("tracetab.schema", Schema),
		parquet.KeyValueMetadata("tracetab.dataset", dataset),
		parquet.KeyValueMetadata("tracetab.trace_id", s.traceID),
	}
}

// write adds a batch of rows.
func (fw *fileWriter[T]) write(batch []T) error {
	if err := fw.ctx.Err(); err != nil {
		return err
	}
	if fw.cols != nil {
		if err := fw.cols.Write(batch); err != nil {
			return err
		}
		fw.rows += int64(len(batch))
		return nil
	}
	n, err := fw.w.Write(batch)
	fw.rows += int64(n)
	return err
}

// finish completes the file (under its temporary name) and returns it
// with its rows and bytes; on an error the file is removed.
func (fw *fileWriter[T]) finish() (*atomicfile.File, int64, int64, error) {
	err := fw.ctx.Err()
	if err == nil {
		if fw.cols != nil {
			err = fw.cols.Close()
		} else {
			err = fw.w.Close()
		}
	}
	if err != nil {
		fw.f.abort()
		return nil, 0, 0, err
	}
	f, size, err := fw.f.done()
	if err != nil {
		return nil, 0, 0, err
	}
	return f, fw.rows, size, nil
}

// abort removes the file.
func (fw *fileWriter[T]) abort() { fw.f.abort() }

// writeFile writes a dataset's file: fill calls emit with batches of rows.
func writeFile[T any](ctx context.Context, s *fileSpec, dataset string, fill func(emit func([]T) error) error) (*atomicfile.File, int64, int64, error) {
	fw, err := newFileWriter[T](ctx, s, dataset)
	if err != nil {
		return nil, 0, 0, err
	}
	if err := fill(fw.write); err != nil {
		fw.abort()
		return nil, 0, 0, err
	}
	return fw.finish()
}

// writeRows writes a dataset whose rows are built at once.
func writeRows[T any](ctx context.Context, s *fileSpec, dataset string, rows []T) (*atomicfile.File, int64, int64, error) {
	return writeFile(ctx, s, dataset, func(emit func([]T) error) error {
		for len(rows) > 0 {
			n := min(len(rows), batchRows)
			if err := emit(rows[:n]); err != nil {
				return err
			}
			rows = rows[n:]
		}
		return nil
	})
}
