package gaps

import "testing"

func TestStepBreakdownRules(t *testing.T) {
	// Step 1 [0, 100us): a DataLoader frame [0, 40), an op [40, 100) whose
	// launch [50, 55) starts a kernel [55, 130): the step extends to 130.
	// Step 2 [100, 200): an op [100, 200) whose launch [135, 145) starts a
	// kernel [140, 210). Step 3 [200, 300) launches nothing: left out.
	tr := mini(t,
		"user_annotation|ProfilerStep#1|1|0|100",
		"user_annotation|enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__|1|0|40",
		"cpu_op|aten::conv|1|40|60",
		"cuda_runtime|cudaLaunchKernel|1|50|5|1",
		"kernel|conv_kernel|0|55|75|1",
		"user_annotation|ProfilerStep#2|1|100|100",
		"cpu_op|aten::relu|1|100|100",
		"cuda_runtime|cudaLaunchKernel|1|135|10|2",
		"kernel|relu_kernel|0|140|70|2",
		"user_annotation|ProfilerStep#3|1|200|100",
		"cpu_op|aten::add|1|200|50",
	)
	b := stepBreakdown(tr, tr.Links(), func(int64) bool { return true })
	if b == nil || len(b.Steps) != 2 {
		t.Fatalf("steps %+v", b)
	}
	s1, s2 := b.Steps[0], b.Steps[1]
	// step 1 [0, 130): kernel 55-130, runtime 50-55, loader 0-40, CPU exec
	// 40-50, nothing else
	if s1.Step != 1 || s1.TotalNs != 130_000 || s1.Ns[RoleKernel] != 75_000 || s1.Ns[RoleRuntime] != 5_000 ||
		s1.Ns[RoleDataLoader] != 40_000 || s1.Ns[RoleCPUExec] != 10_000 || s1.Ns[RoleOther] != 0 || s1.ExtendedByNs != 30_000 {
		t.Errorf("step 1: %+v", s1)
	}
	// step 2 starts where step 1 ended: [130, 210): kernel 140-210, runtime
	// 135-140 (the rest of the call is under the kernel), CPU exec 130-135
	if s2.Step != 2 || s2.TotalNs != 80_000 || s2.Ns[RoleKernel] != 70_000 || s2.Ns[RoleRuntime] != 5_000 ||
		s2.Ns[RoleCPUExec] != 5_000 || s2.Ns[RoleOther] != 0 {
		t.Errorf("step 2: %+v", s2)
	}
	if b.Total.TotalNs != 210_000 || b.Note == "" {
		t.Errorf("total %+v, note %q", b.Total, b.Note)
	}
	if b.Advice == "" {
		t.Error("a DataLoader share of 19% should advise num_workers")
	}
}
