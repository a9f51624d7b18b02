package cli

import (
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/tracetab/tracetab/internal/metricnames"
	"github.com/tracetab/tracetab/internal/render"
	"github.com/tracetab/tracetab/internal/table"
)

// compactOptions are table's --columns and --width: the compact op table
// for 80-100 column terminals instead of torch's 195-column layout.
type compactOptions struct {
	columns string
	width   int
	cmd     *cobra.Command
	// rowModel gives the roofline columns' figures (table_roofline.go)
	rowModel func(r *table.Row) *render.RowModel
}

// defaultCompactColumns fit an 80-column terminal with a 30-rune name.
var defaultCompactColumns = []string{"self_cpu", "cpu_total", "self_cuda", "cuda_total", "calls"}

// columnKey is the compact column that a spelling names: a column key, or
// any spelling of the same metric (torch's sort keys, diff's short names;
// internal/metricnames holds the one alias table).
func columnKey(k string) string {
	for _, col := range render.CompactColumns {
		if col.Key == k {
			return k
		}
	}
	if m, ok := metricnames.Lookup(k); ok {
		for _, s := range m.Spellings() {
			for _, col := range render.CompactColumns {
				if col.Key == s {
					return s
				}
			}
		}
	}
	return k
}

func addCompactFlags(cmd *cobra.Command) *compactOptions {
	c := &compactOptions{cmd: cmd}
	cmd.Flags().StringVar(&c.columns, "columns", "", "compact table: these columns after the name, comma-separated (e.g. self_cuda,calls; torch's sort keys work too); default "+strings.Join(defaultCompactColumns, ","))
	cmd.Flags().IntVar(&c.width, "width", 0, "compact table: fit lines to this many columns (0: the terminal's width, else $COLUMNS, else 100)")
	prev := cmd.PreRunE
	cmd.PreRunE = func(cmd *cobra.Command, args []string) error {
		if c.active() {
			by, format := cmd.Flags().Lookup("by"), cmd.Flags().Lookup("format")
			if (by != nil && by.Value.String() != "op") || (format != nil && format.Value.String() != "text") {
				return usageErrorf("--columns and --width shape the op table's text (--by op, --format text); got --by %s --format %s", by.Value, format.Value)
			}
			if c.width < 0 {
				return usageErrorf("--width %d: want a number of columns from 40, or 0 for the terminal's width", c.width)
			}
		}
		if prev != nil {
			return prev(cmd, args)
		}
		return nil
	}
	return c
}

// active reports whether the compact table was asked for.
func (c *compactOptions) active() bool {
	return c != nil && (c.cmd.Flags().Changed("columns") || c.cmd.Flags().Changed("width"))
}

func compactKeys() []string {
	keys := make([]string, len(render.CompactColumns))
	for i, c := range render.CompactColumns {
		keys[i] = c.Key
	}
	return keys
}

// layout resolves the columns and the width.
func (c *compactOptions) layout(e *env, o *tableOptions, res *table.Result) (render.CompactLayout, error) {
	lay := render.CompactLayout{Demangle: e.demangle, Model: c.rowModel}
	keys := defaultCompactColumns
	if strings.TrimSpace(c.columns) != "" {
		keys = strings.Split(c.columns, ",")
	}
	for _, k := range keys {
		k = columnKey(strings.TrimSpace(k))
		found := false
		for _, col := range render.CompactColumns {
			if col.Key == k {
				if c.columns == "" && !res.HasDeviceTime && strings.Contains(k, "cuda") {
					found = true // the default leaves device columns out of a CPU-only table
					break
				}
				lay.Columns = append(lay.Columns, col)
				found = true
			}
		}
		if !found {
			return lay, usageErrorf("--columns: unknown column %q: use %s (or torch's sort keys)", k, strings.Join(compactKeys(), ", "))
		}
	}
	lay.Width = c.width
	if lay.Width == 0 {
		lay.Width = terminalWidth(e)
	}
	lay.Width = max(lay.Width, 40)
	lay.Torch = render.DefaultTorchLayout()
	lay.Torch.Limit, lay.Torch.TopLevel = o.limit, o.topLevel
	return lay, nil
}

// terminalWidth is stdout's terminal width, else $COLUMNS, else 100.
func terminalWidth(e *env) int {
	if ow, ok := e.stdout.(*outWriter); ok {
		if f, ok := ow.w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
			if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
				return w
			}
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return 100
}

// writeCompact prints the compact op table.
func writeCompact(e *env, o *tableOptions, res *table.Result) error {
	lay, err := o.compact.layout(e, o, res)
	if err != nil {
		return err
	}
	return render.CompactOpTable(e.stdout, res, lay)
}
