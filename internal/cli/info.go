package cli

import (
	"strconv"

	"github.com/spf13/cobra"
	"github.com/tracetab/tracetab/internal/info"
	"github.com/tracetab/tracetab/internal/layout"
	"github.com/tracetab/tracetab/internal/render/infoview"
)

func itoa(n int) string { return strconv.Itoa(n) }

type infoOptions struct {
	path   string
	format string
	width  int
}

func newInfoCmd(e *env) *cobra.Command {
	o := &infoOptions{}
	cmd := &cobra.Command{
		Use:   "info TRACE",
		Short: "What the trace holds: format era, devices, streams, threads, steps, counts",
		Long: `info prints what a user checks first: the exporter's era and torch version hints,
rank and world size, GPU devices and streams, CPU threads, profiler steps, the
time span, event counts per category, device ops linked to (or missing) their
launch call, and every warning raised while reading. TRACE may be - for stdin.`,
		Example: `  tracetab info trace.pt.trace.json.gz
  tracetab info --format json trace.json | jq .device_ops_unlinked`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.path = args[0]
			if err := checkFormat(o.format, "text", "json"); err != nil {
				return err
			}
			if err := checkWidth(o.width); err != nil {
				return err
			}
			return runInfo(e, o)
		},
	}
	cmd.Flags().StringVar(&o.format, "format", "text", "output format: text or json")
	addWidthFlag(cmd, &o.width)
	return cmd
}

func runInfo(e *env, o *infoOptions) error {
	t, err := e.loadBare(o.path)
	if err != nil {
		return err
	}
	in := info.Summarize(t)
	if o.format == "json" {
		return layout.JSON(e.stdout, in)
	}
	return infoview.Text(e.stdout, in, e.textWidth(o.width))
}
