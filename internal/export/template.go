package export

import (
	"reflect"
	"sync"

	"github.com/parquet-go/parquet-go/format"

	"github.com/tracetab/tracetab/internal/pqcol"
)

// A file's schema and metadata for pqcol come from an empty file that
// parquet-go writes for the same row type and options (pqcol.Template):
// 0.6 ms each, 14 files per trace, seconds over the 1,024 ranks of a job.
// They differ from file to file only by the trace id, so each row type's
// (for a dataset, codec, row group size and version) is made once and
// given its trace id per file.

type templateKey struct {
	typ                     reflect.Type
	dataset, codec, version string
	rowGroups               int64
}

type templateEntry struct {
	meta *format.FileMetaData
	err  error // the type is not written by columns (a list)
}

var templates sync.Map // templateKey -> templateEntry

// templateID stands for the trace id in a kept template.
const templateID = "\x00trace id\x00"

// templateOf is pqcol.Template[T] for a file of dataset under s.
func templateOf[T any](s *fileSpec, dataset string) (*format.FileMetaData, error) {
	k := templateKey{reflect.TypeFor[T](), dataset, s.codec.String(), s.version, s.rowGroups}
	v, ok := templates.Load(k)
	if !ok {
		spec := *s
		spec.traceID = templateID
		meta, err := pqcol.Template[T](spec.options(dataset)...)
		v, _ = templates.LoadOrStore(k, templateEntry{meta, err})
	}
	e := v.(templateEntry)
	if e.err != nil {
		return nil, e.err
	}
	m := *e.meta
	m.KeyValueMetadata = append([]format.KeyValue(nil), m.KeyValueMetadata...)
	for j := range m.KeyValueMetadata {
		if m.KeyValueMetadata[j].Value == templateID {
			m.KeyValueMetadata[j].Value = s.traceID
		}
	}
	return &m, nil
}
