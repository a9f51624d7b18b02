package cli

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/tracetab/tracetab/internal/metricnames"
	"github.com/tracetab/tracetab/internal/render/tableview"
	"github.com/tracetab/tracetab/internal/table"
)

// compactOptions are table's --columns and --width: the compact op table
// for 80-100 column terminals instead of torch's 195-column layout.
type compactOptions struct {
	columns string
	width   int
	cmd     *cobra.Command
	// rowModel gives the roofline columns' figures (table_roofline.go)
	rowModel func(r *table.Row) *tableview.RowModel
}

// defaultCompactColumns fit an 80-column terminal with a 30-rune name.
var defaultCompactColumns = []string{"self_cpu", "cpu_total", "self_cuda", "cuda_total", "calls"}

// columnKey is the compact column that a spelling names: a column key, or
// any spelling of the same metric (torch's sort keys, diff's short names;
// internal/metricnames holds the one alias table).
func columnKey(k string) string {
	for _, col := range tableview.CompactColumns {
		if col.Key == k {
			return k
		}
	}
	if m, ok := metricnames.Lookup(k); ok {
		for _, s := range m.Spellings() {
			for _, col := range tableview.CompactColumns {
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
	addWidthFlag(cmd, &c.width)
	prev := cmd.PreRunE
	cmd.PreRunE = func(cmd *cobra.Command, args []string) error {
		if c.active() {
			format := cmd.Flags().Lookup("format")
			if cmd.Flags().Changed("columns") && (format != nil && format.Value.String() != "text" || cmd.Flags().Lookup("by").Value.String() != "op") {
				return usageErrorf("--columns shapes the op table's text (--by op, --format text); got --by %s --format %s", cmd.Flags().Lookup("by").Value, format.Value)
			}
		}
		if err := checkWidth(c.width); err != nil {
			return err
		}
		if prev != nil {
			return prev(cmd, args)
		}
		return nil
	}
	return c
}

// active reports whether the compact op table was asked for (--columns,
// or --width for the op view's text).
func (c *compactOptions) active() bool {
	if c == nil {
		return false
	}
	f := c.cmd.Flags()
	return f.Changed("columns") || (f.Changed("width") && f.Lookup("by").Value.String() == "op" && f.Lookup("format").Value.String() == "text")
}

func compactKeys() []string {
	keys := make([]string, len(tableview.CompactColumns))
	for i, c := range tableview.CompactColumns {
		keys[i] = c.Key
	}
	return keys
}

// layout resolves the columns and the width.
func (c *compactOptions) layout(e *env, o *tableOptions, res *table.Result) (tableview.CompactLayout, error) {
	lay := tableview.CompactLayout{Demangle: e.demangle, Model: c.rowModel}
	if o.nameWidthSet {
		lay.NameWidth = o.nameWidth
	}
	keys := defaultCompactColumns
	if strings.TrimSpace(c.columns) != "" {
		keys = strings.Split(c.columns, ",")
	}
	for _, k := range keys {
		k = columnKey(strings.TrimSpace(k))
		found := false
		for _, col := range tableview.CompactColumns {
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
	lay.Width = e.textWidth(c.width)
	lay.Torch = tableview.DefaultTorchLayout()
	lay.Torch.Limit, lay.Torch.TopLevel = o.limit, o.topLevel
	return lay, nil
}

// writeCompact prints the compact op table.
func writeCompact(e *env, o *tableOptions, res *table.Result) error {
	lay, err := o.compact.layout(e, o, res)
	if err != nil {
		return err
	}
	return tableview.CompactOpTable(e.stdout, res, lay)
}
