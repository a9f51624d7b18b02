package critpath

import (
	"strings"

	"github.com/tracetab/tracetab/internal/trace"
)

// Name classes, decided once per distinct name of a trace.
const (
	nmLock        uint16 = 1 << iota // takes the CUDA runtime lock: cudaLaunchKernel, cudaMemcpyAsync, cudaHostAlloc
	nmBlocking                       // HTA's blocking calls: the last edge into them weighs 0
	nmRecord                         // cudaEventRecord
	nmWaitCall                       // cudaStreamWaitEvent (the runtime call)
	nmStreamSync                     // cuda_sync "Stream Sync"
	nmContextSync                    // cuda_sync "Context Sync"
	nmEventSync                      // cuda_sync "Event Sync"
	nmWaitEvent                      // cuda_sync "Stream Wait Event"
	nmAutograd                       // contains "autograd"
	nmForward                        // contains "forward"
	nmDataLoader                     // trace.IsDataLoader
)

// LockCalls are the runtime calls that take the CUDA runtime lock (HTA's
// CUDA_RUNTIME_EVENTS, and their HIP names).
var LockCalls = []string{"cudaLaunchKernel", "cudaMemcpyAsync", "cudaHostAlloc", "hipLaunchKernel", "hipMemcpyAsync", "hipHostMalloc"}

// BlockingCalls are HTA's blocking calls (BLOCKING_SYNC_CALLS, and their
// HIP names): the CPU waits inside them for the GPU, so the time up to
// their end is not CPU work.
var BlockingCalls = []string{"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventQuery", "cudaEventSynchronize",
	"cudaMemcpy", "cudaMemcpyAsync", "hipDeviceSynchronize", "hipStreamSynchronize", "hipEventQuery", "hipEventSynchronize",
	"hipMemcpy", "hipMemcpyAsync"}

var recordCalls = []string{"cudaEventRecord", "cudaEventRecordWithFlags", "hipEventRecord", "hipEventRecordWithFlags"}
var waitCalls = []string{"cudaStreamWaitEvent", "hipStreamWaitEvent"}

func in(s string, list []string) bool {
	for _, x := range list {
		if s == x {
			return true
		}
	}
	return false
}

// nameClasses classes every interned string of t.
func nameClasses(t *trace.Trace) []uint16 {
	c := make([]uint16, len(t.Strings))
	for i, s := range t.Strings {
		var f uint16
		if in(s, LockCalls) {
			f |= nmLock
		}
		if in(s, BlockingCalls) {
			f |= nmBlocking
		}
		if in(s, recordCalls) {
			f |= nmRecord
		}
		if in(s, waitCalls) {
			f |= nmWaitCall
		}
		switch s {
		case "Stream Sync":
			f |= nmStreamSync
		case "Context Sync":
			f |= nmContextSync
		case "Event Sync":
			f |= nmEventSync
		case "Stream Wait Event":
			f |= nmWaitEvent
		}
		if strings.Contains(s, "autograd") {
			f |= nmAutograd
		}
		if strings.Contains(s, "forward") {
			f |= nmForward
		}
		if trace.IsDataLoader(s) {
			f |= nmDataLoader
		}
		c[i] = f
	}
	return c
}
