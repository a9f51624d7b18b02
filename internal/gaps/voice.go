package gaps

// One voice: a command gives one advice, the verdict's. The step
// breakdown keeps its numbers and the TensorBoard plugin's rules (its
// Advice stays in JSON), but a remedy of another class than the verdict's
// is said only as an "also", with the number that justifies it.

// alsoMinPct is the share of the step time a role must hold before its
// remedy is named beside a verdict of another class.
const (
	alsoLoaderPct = 5  // the plugin's own DataLoader threshold
	alsoLaunchPct = 10 // launch calls alone, not launch calls and CPU work
)

// agrees reports whether a remedy of class c follows from the verdict:
// its class, or the steady state's when start-up dominates.
func (v *Verdict) agrees(c string) bool {
	return c == v.Class || (v.Class == ClassStartup && c == v.SteadyClass)
}

// oneVoice marks whether the breakdown's advice agrees with the verdict
// and gives the verdict the other class's remedies its numbers justify.
func oneVoice(v *Verdict, bd *Breakdown) {
	if bd == nil || bd.Total.TotalNs == 0 {
		return
	}
	bd.AgreesWithVerdict = bd.Advice != "" && v.agrees(bd.AdviceClass)
	share := func(r Role) float64 { return float64(bd.Total.Ns[r]) * 100 / float64(bd.Total.TotalNs) }
	if p := share(RoleDataLoader); p >= alsoLoaderPct && !v.agrees(ClassInput) {
		v.Also = append(v.Also, "DataLoader "+fmtPct(p)+" of the step time: raise num_workers and set pin_memory=True")
	}
	if p := share(RoleRuntime); p >= alsoLaunchPct && p > share(RoleKernel) && !v.agrees(ClassLaunch) {
		v.Also = append(v.Also, "launch calls "+fmtPct(p)+" of the step time, more than the kernels' "+fmtPct(share(RoleKernel))+
			": CUDA graphs or torch.compile would cut launch overhead")
	}
}
