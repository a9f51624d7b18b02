package gaps

// Breakdown is torch's step-time breakdown (TensorBoard plugin Overview).
type Breakdown struct{}
