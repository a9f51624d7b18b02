package gen

import (
	"bufio"
	"bytes"
	"strconv"
)

// GPUBoundScale multiplies every device op's duration under
// Config.GPUBound, so the stream always has queued work: the launch calls
// of a step run far ahead of its kernels and each kernel starts when the
// one before it ends.
const GPUBoundScale = 20

// gpuBoundDur is a device op's duration before noise: GPUBoundScale times
// longer under GPUBound.
func (g *writer) gpuBoundDur(d int64) int64 {
	if g.gpuBound {
		return d * GPUBoundScale
	}
	return d
}

// stepHold, under GPUBound, holds the events of a step in a buffer so
// that the ProfilerStep#N annotation, whose end is the end of the
// synchronize that waits for the step's device work, can be written once
// that end is known. It returns the function that ends the step: given the
// step's CPU end (after its last op), it writes the cudaDeviceSynchronize,
// then the annotation from stepStart (with writeStep) and the held events,
// and returns the step's end.
func (g *writer) stepHold() func(cpuEnd int64, writeStep func(end int64)) int64 {
	real := g.w
	buf := &bytes.Buffer{}
	g.w = bufio.NewWriterSize(buf, 64<<10)
	return func(cpuEnd int64, writeStep func(end int64)) int64 {
		gpuEnd := max(g.free[7], g.free[20]) - 1_000 // free is an op's end + 1 us
		at := cpuEnd + 2_000
		end := max(gpuEnd+3_000, at+5_000)
		g.x("cuda_runtime", "cudaDeviceSynchronize", [2]int{pid, mainTid}, at, end-at,
			"\"cbid\": 165, \"correlation\": "+strconv.FormatInt(g.corr, 10))
		g.corr++
		g.f.LaunchCalls++
		g.w.Flush()
		g.w = real
		stepEnd := end + 5_000
		writeStep(stepEnd)
		g.w.Write(buf.Bytes())
		return stepEnd
	}
}

// baseTime is the trace's baseTimeNanoseconds.
func baseTime(cfg Config) int64 {
	if cfg.BaseTimeNs > 0 {
		return cfg.BaseTimeNs
	}
	return base
}
