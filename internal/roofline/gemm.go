package roofline

// GEMMs. The recorded sizes are the logical ones: a transposed operand
// (x @ w.t(), a column-major view) is recorded as its transposed shape, so
// mm(A[M,K], B[K,N]) holds for every layout and no stride is needed.
// FLOPs are 2·M·N·K per matrix product (a multiply and an add), times the
// batch; the bias add and alpha/beta scaling are not counted. Bytes are
// each operand read once and the result written once, at the recorded
// dtypes: the least traffic the product needs.

// matDims checks a [.., M, K] x [.., K, N] pair of the given rank.
func matDims(a, b []int64, rank int) (m, k, n int64, ok bool) {
	if len(a) != rank || len(b) != rank || a[rank-1] != b[rank-2] {
		return 0, 0, 0, false
	}
	if rank == 3 && a[0] != b[0] {
		return 0, 0, 0, false
	}
	return a[rank-2], a[rank-1], b[rank-1], true
}

// gemmFLOPs is 2·batch·M·N·K.
func gemmFLOPs(batch, m, n, k int64) (int64, error) {
	f, ok := mul(2, batch, m, n, k)
	if !ok {
		return 0, errOverflow
	}
	return f, nil
}

// outDType is the dtype of an optional out= tensor at position i, else def.
func outDType(c *Call, i int, def string) string {
	if d := c.dtype(i); d != "" {
		return d
	}
	return def
}

// mm: mm(self[M,K], mat2[K,N]) and its out= form; _int_mm likewise.
func mm(c *Call) (Estimate, error) {
	a, okA := c.tensor(0)
	b, okB := c.tensor(1)
	if !okA || !okB {
		return noModel("needs two matrices")
	}
	m, k, n, ok := matDims(a, b, 2)
	if !ok {
		return noModel("sizes %v x %v are not [M,K] x [K,N]", a, b)
	}
	f, err := gemmFLOPs(1, m, n, k)
	if err != nil {
		return Estimate{}, err
	}
	dt := c.dtype(0)
	e := Estimate{Family: GEMM, Model: "mm", FLOPs: f, DType: dt}
	return withBytes(e, tref(a, dt), tref(b, c.dtype(1)), tref([]int64{m, n}, outDType(c, 2, dt)))
}

// addmm: addmm(bias, mat1[M,K], mat2[K,N], beta, alpha); also
// _addmm_activation (the fused GELU is not counted).
func addmm(c *Call) (Estimate, error) {
	bias, okC := c.tensor(0)
	a, okA := c.tensor(1)
	b, okB := c.tensor(2)
	if !okC || !okA || !okB {
		return noModel("needs a bias and two matrices")
	}
	m, k, n, ok := matDims(a, b, 2)
	if !ok {
		return noModel("sizes %v x %v are not [M,K] x [K,N]", a, b)
	}
	if _, ok := broadcast(bias, []int64{m, n}); !ok {
		return noModel("bias %v does not broadcast to [%d, %d]", bias, m, n)
	}
	f, err := gemmFLOPs(1, m, n, k)
	if err != nil {
		return Estimate{}, err
	}
	dt := c.dtype(1)
	e := Estimate{Family: GEMM, Model: "addmm", FLOPs: f, DType: dt}
	return withBytes(e, tref(bias, c.dtype(0)), tref(a, dt), tref(b, c.dtype(2)), tref([]int64{m, n}, dt))
}

// bmm: bmm(self[B,M,K], mat2[B,K,N]) and its out= form.
func bmm(c *Call) (Estimate, error) {
	a, okA := c.tensor(0)
	b, okB := c.tensor(1)
	if !okA || !okB {
		return noModel("needs two batches of matrices")
	}
	m, k, n, ok := matDims(a, b, 3)
	if !ok {
		return noModel("sizes %v x %v are not [B,M,K] x [B,K,N]", a, b)
	}
	f, err := gemmFLOPs(a[0], m, n, k)
	if err != nil {
		return Estimate{}, err
	}
	dt := c.dtype(0)
	e := Estimate{Family: GEMM, Model: "bmm", FLOPs: f, DType: dt}
	return withBytes(e, tref(a, dt), tref(b, c.dtype(1)), tref([]int64{a[0], m, n}, outDType(c, 2, dt)))
}

// baddbmm: baddbmm(self, batch1[B,M,K], batch2[B,K,N], beta, alpha), self
// broadcast to [B,M,N]; addbmm sums the batch into one [M,N] result.
func baddbmm(sumBatch bool) modelFunc {
	name := "baddbmm"
	if sumBatch {
		name = "addbmm"
	}
	return func(c *Call) (Estimate, error) {
		self, okC := c.tensor(0)
		a, okA := c.tensor(1)
		b, okB := c.tensor(2)
		if !okC || !okA || !okB {
			return noModel("needs self and two batches of matrices")
		}
		m, k, n, ok := matDims(a, b, 3)
		if !ok {
			return noModel("sizes %v x %v are not [B,M,K] x [B,K,N]", a, b)
		}
		out := []int64{a[0], m, n}
		if sumBatch {
			out = []int64{m, n}
		}
		if _, ok := broadcast(self, out); !ok {
			return noModel("self %v does not broadcast to %v", self, out)
		}
		f, err := gemmFLOPs(a[0], m, n, k)
		if err != nil {
			return Estimate{}, err
		}
		dt := c.dtype(1)
		e := Estimate{Family: GEMM, Model: name, FLOPs: f, DType: dt}
		return withBytes(e, tref(self, c.dtype(0)), tref(a, dt), tref(b, c.dtype(2)), tref(out, dt))
	}
}

// scaledMM: _scaled_mm(self[M,K], mat2[K,N], scale_a, scale_b, bias,
// scale_result, out_dtype, use_fast_accum): the FP8 GEMM. The scales and
// bias are read; the result is written at out_dtype when recorded (a
// ScalarType code), else at self's dtype.
func scaledMM(c *Call) (Estimate, error) {
	a, okA := c.tensor(0)
	b, okB := c.tensor(1)
	if !okA || !okB {
		return noModel("needs two matrices")
	}
	m, k, n, ok := matDims(a, b, 2)
	if !ok {
		return noModel("sizes %v x %v are not [M,K] x [K,N]", a, b)
	}
	f, err := gemmFLOPs(1, m, n, k)
	if err != nil {
		return Estimate{}, err
	}
	dt := c.dtype(0)
	out := dt
	if code, ok := c.intValue(6); ok && scalarTypeDTypes[code] != "" {
		out = scalarTypeDTypes[code]
	}
	refs := []tensorRef{tref(a, dt), tref(b, c.dtype(1)), tref([]int64{m, n}, out)}
	for i := 2; i <= 5; i++ {
		if d, ok := c.tensor(i); ok && c.dtype(i) != "" {
			refs = append(refs, tref(d, c.dtype(i)))
		}
	}
	return withBytes(Estimate{Family: GEMM, Model: "scaled_mm", FLOPs: f, DType: dt}, refs...)
}
