package exportview

import (
	"fmt"
	"io"
	"strings"

	"github.com/tracetab/tracetab/internal/export"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/units"
)

// rowWords say what a dataset's rows are, for people.
var rowWords = map[string][2]string{
	export.DatasetEvents: {"event", "events"}, export.DatasetOps: {"op row", "op rows"}, export.DatasetKernels: {"kernel row", "kernel rows"},
	export.DatasetSteps: {"step", "steps"}, export.DatasetGaps: {"gap", "gaps"}, export.DatasetMemory: {"memory record", "memory records"},
	export.DatasetCollectives: {"collective kernel", "collective kernels"}, export.DatasetModules: {"module", "modules"},
	export.DatasetSequences: {"sequence", "sequences"}, export.DatasetQueues: {"launch queue", "launch queues"},
}

func rowsText(rows map[string]int64) string {
	var parts []string
	for _, d := range export.Datasets {
		if w, ok := rowWords[d]; ok {
			parts = append(parts, units.Plural(int(rows[d]), w[0], w[1]))
		}
	}
	return strings.Join(parts, ", ")
}

// Line writes the line of one exported trace, wrapped at spaces to width
// columns (0: one line), its continuation lines indented.
func Line(w io.Writer, r *export.Result, width int) {
	writeWrapped(w, fmt.Sprintf("%s: trace %s, %s, %s of Parquet in %d files", r.Path, r.TraceID, rowsText(r.Rows), units.Bytes(r.Bytes), r.Files), width)
}

// Total writes the line of the whole export into dir, wrapped as Line.
func Total(w io.Writer, dir string, sum *export.Summary, width int) {
	writeWrapped(w, fmt.Sprintf("exported %s to %s: %s, %s of Parquet", units.Plural(sum.Traces, "trace", "traces"), dir,
		rowsText(sum.Rows), units.Bytes(sum.Bytes)), width)
}

func writeWrapped(w io.Writer, s string, width int) {
	for _, l := range layout.Wrap(s, width, "  ") {
		io.WriteString(w, l+"\n")
	}
}
