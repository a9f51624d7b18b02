package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/render/rooflineview"
	"github.com/tracetab/tracetab/internal/roofline"
	"github.com/tracetab/tracetab/internal/trace"
)

type rooflineOptions struct {
	format string
	sort   string
	limit  int
	width  int
	peak   string
	over   *roofline.Override
}

func newRooflineCmd(e *env) *cobra.Command {
	o := &rooflineOptions{}
	cmd := &cobra.Command{
		Use:   "roofline TRACE",
		Short: "Is the GPU's busy time well spent: FLOPs and bytes per op against the device's peaks",
		Long: `roofline models each op of a trace recorded with record_shapes=True from its
recorded arguments ("Input Dims", "Input type", "Concrete Inputs") and sets the
FLOPs and bytes against the device time of the kernels it launched: achieved
TFLOP/s and TB/s, their share of the device's peaks, and whether the op is
compute- or memory-bound by the ridge point (peak FLOP/s over peak bytes/s).

Rows: one per op and recorded arguments (shapes, dtypes, scalar values) on
one device. A device op belongs to the op that launched it, as table
attributes it; the outermost op with a model owns every device op below it,
so nothing is counted twice: aten::linear, aten::matmul and aten::conv2d
have no model of their own and are counted through their addmm, mm, bmm or
convolution. Ops with no model keep their own device ops (table's Self
CUDA) with family null; device ops no op launched are rows of their own
(marked [gpu]).

Models (FLOPs; bytes are each recorded tensor read once and each result
written once, at the recorded dtypes):
  gemm       mm, addmm, bmm, baddbmm, _scaled_mm: 2·M·N·K per product, times
             the batch
  conv       convolution, _convolution, cudnn_/miopen_ forms and backwards:
             2·N·K·(C/groups)·ΠR·ΠO, the output sizes from the recorded
             stride, padding and dilation (torch 2.1+); each backward
             gradient costs the forward's
  attention  scaled_dot_product_attention and its flash, efficient and cudnn
             forms: B·H·Sq·Sk·(2·D + 2·Dv) (4·B·H·Sq·Sk·D), half with a causal
             mask, 2.5x for the backward (FlashAttention's convention)
  elementwise, norm, reduction: 1 FLOP per result element (0 for copies and
             fills), 5 per element for layer/batch/group norm and softmax, 4
             for RMS norm, 1 per input element for reductions; memory-bound,
             read their bytes
GEMM, conv and attention are measured against the matrix peak of their dtype
(TF32 for an FP32 op whose kernels are named tf32, xf32 or CUTLASS's s1688);
the other families against the FP32 figure.

Peaks are dense datasheet figures (no sparsity) matched from the trace's
deviceProperties name: V100, A100 40/80GB (SXM, PCIe), H100 (SXM, PCIe, NVL),
H200, B200, L4, A10, T4, MI210, MI250X, MI300X. --peak tflops=N,tbps=N (or
fp32=, tf32=, fp16=, bf16=, fp8=) replaces them; an unknown device gets
achieved figures only and a note.

Device time is the sum of the durations of kernels, memcpys and memsets
(overlapping ops each count in full). The summary gives the share of it
that modelled ops own, the time-weighted % of peak of GEMMs and attention
(each row's % of the peak of its bound), and the rows with the most time
lost to the peak: device time x (1 - % of peak). A trace without shapes
exits 0 with every row unmodelled and a note.`,
		Example: `  tracetab roofline trace.json.gz
  tracetab roofline trace.json.gz --sort lost_ns --limit 10
  tracetab roofline trace.json.gz --peak tflops=989,tbps=3.35
  tracetab roofline trace.json --format json | jq '.rows[] | select(.family=="gemm") | .peak_pct'`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.validate(); err != nil {
				return err
			}
			return runRoofline(e, o, args[0])
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "text", "output format: text, md, csv or json")
	f.StringVar(&o.sort, "sort", "device_ns", "row order: "+strings.Join(roofline.SortKeys, ", ")+" (largest first)")
	f.IntVar(&o.limit, "limit", 30, "rows to print; negative prints all")
	addWidthFlag(cmd, &o.width)
	f.StringVar(&o.peak, "peak", "", "peaks to use instead of the table's: tflops=N (every precision; or fp32=, tf32=, fp16=, bf16=, fp8=), tbps=N")
	e.completeFlag(cmd, "format", fixedCompletion("text", "md", "csv", "json"))
	e.completeFlag(cmd, "sort", fixedCompletion(roofline.SortKeys...))
	return cmd
}

func (o *rooflineOptions) validate() error {
	if err := checkFormat(o.format, "text", "md", "csv", "json"); err != nil {
		return err
	}
	if !(&roofline.Result{}).Sort(o.sort) {
		return usageErrorf("unknown --sort %q: use %s", o.sort, strings.Join(roofline.SortKeys, ", "))
	}
	if err := checkWidth(o.width); err != nil {
		return err
	}
	if o.peak != "" {
		ov, err := roofline.ParseOverride(o.peak)
		if err != nil {
			return usageErrorf("--peak %q: %v", o.peak, err)
		}
		o.over = ov
	}
	return nil
}

func runRoofline(e *env, o *rooflineOptions, path string) error {
	e.shapesOnly = true // the models read shapes, dtypes and scalar values only
	// and never the [memory] records: they are counted, not stored
	t, err := e.loadOpts(path, parse.Options{NoMemory: true})
	e.shapesOnly = false
	if err != nil {
		return err
	}
	e.letGo(func() { prepareRoofline(t) })
	res := roofline.Compute(t, roofline.Options{Peak: o.over})
	res.Sort(o.sort)
	for _, n := range res.Notes {
		note(e.stderr, n)
	}
	switch o.format {
	case "json":
		return rooflineview.JSON(e.stdout, path, res, o.limit)
	}
	return rooflineview.Table(e.stdout, o.format, res, rooflineview.Options{Limit: o.limit, Width: e.textWidth(o.width), Demangle: e.demangle})
}

// prepareRoofline lets go of what the roofline never reads before the
// links are built: launch parameters, and then the links' nesting and
// launch counts (table's attribution nests events by torch's rules).
func prepareRoofline(t *trace.Trace) {
	t.Aux = trace.Store[trace.Aux]{}
	collect()
	freeUnused(t)
}
