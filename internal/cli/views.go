package cli

import (
	"github.com/tracetab/tracetab/internal/trace"
)

func runKernelView(e *env, o *tableOptions, t *trace.Trace) error {
	return usageErrorf("--by kernel: not implemented yet")
}

func runStepView(e *env, o *tableOptions, t *trace.Trace) error {
	return usageErrorf("--by step: not implemented yet")
}
