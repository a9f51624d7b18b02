package trace

import "testing"

func TestIsBlockingCall(t *testing.T) {
	for name, want := range map[string]bool{
		"cudaDeviceSynchronize": true, "cudaStreamSynchronize": true, "cudaEventSynchronize": true,
		"hipDeviceSynchronize": true, "cudaMemcpy": true, "cudaMemcpy2D": true,
		"cudaMemcpyAsync": false, "cudaStreamWaitEvent": false, "cudaLaunchKernel": false,
	} {
		if IsBlockingCall(name) != want {
			t.Errorf("%s: want %v", name, want)
		}
	}
}
