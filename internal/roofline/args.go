package roofline

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// Arg is one recorded input of an op call, read from the three parallel
// lists torch writes with record_shapes=True: "Input Dims" (a tensor's
// sizes; [] for anything else), "Input type" (a tensor's dtype such as
// "c10::BFloat16" or "float", or "Scalar", "ScalarList", "TensorList",
// "GenericList", "" for None) and "Concrete Inputs" (torch 2.1+: a scalar
// or list argument's value as text, "" for tensors).
type Arg struct {
	Dims  []int64 // the sizes when the element is a flat list of integers
	Flat  bool    // Dims holds a flat list of integers ([] included)
	Type  string  // "" when the trace has no Input type for it
	Value string  // "" when the trace has no Concrete Inputs for it
}

// Call is what an op's recorded arguments say.
type Call struct {
	Args []Arg
	// HasTypes and HasValues say whether the trace wrote "Input type" and
	// "Concrete Inputs" (lists as long as "Input Dims") for the call.
	HasTypes, HasValues bool
}

// ParseCall reads the compact JSON texts of "Input Dims", "Input type" and
// "Concrete Inputs" (each may be ""). ok is false when there are no dims
// or they are not a JSON list.
func ParseCall(dims, types, values string) (c Call, ok bool) {
	var d []json.RawMessage
	if dims == "" || json.Unmarshal([]byte(dims), &d) != nil {
		return c, false
	}
	c.Args = make([]Arg, len(d))
	for i, raw := range d {
		c.Args[i].Dims, c.Args[i].Flat = intList(raw)
	}
	var ts []string
	if types != "" && json.Unmarshal([]byte(types), &ts) == nil && len(ts) == len(d) {
		c.HasTypes = true
		for i := range ts {
			c.Args[i].Type = ts[i]
		}
	}
	var vs []json.RawMessage
	if values != "" && json.Unmarshal([]byte(values), &vs) == nil && len(vs) == len(d) {
		c.HasValues = true
		for i, raw := range vs {
			var s string
			if json.Unmarshal(raw, &s) == nil {
				c.Args[i].Value = s
			} else {
				c.Args[i].Value = string(raw)
			}
		}
	}
	return c, true
}

// intList reads a flat JSON list of integers.
func intList(raw json.RawMessage) ([]int64, bool) {
	var xs []json.Number
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if dec.Decode(&xs) != nil {
		return nil, false
	}
	out := make([]int64, len(xs))
	for i, x := range xs {
		v, err := strconv.ParseInt(string(x), 10, 64)
		if err != nil {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// arg returns argument i, or a zero Arg when the call has fewer.
func (c *Call) arg(i int) Arg {
	if i < 0 || i >= len(c.Args) {
		return Arg{}
	}
	return c.Args[i]
}

// tensor returns the sizes of argument i when it is a tensor: a flat list
// whose type (when recorded) is a dtype.
func (c *Call) tensor(i int) ([]int64, bool) {
	a := c.arg(i)
	if !a.Flat {
		return nil, false
	}
	if c.HasTypes && !IsDType(a.Type) {
		return nil, false
	}
	return a.Dims, true
}

// dtype returns argument i's dtype, "" when not recorded or not a tensor.
func (c *Call) dtype(i int) string {
	a := c.arg(i)
	if !c.HasTypes || !IsDType(a.Type) {
		return ""
	}
	return a.Type
}

// boolValue reads a recorded bool argument ("True"/"False"); ok is false
// when the trace did not record it.
func (c *Call) boolValue(i int) (v, ok bool) {
	switch c.arg(i).Value {
	case "True", "true", "1":
		return true, true
	case "False", "false", "0":
		return false, true
	}
	return false, false
}

// intValue reads a recorded integer argument.
func (c *Call) intValue(i int) (int64, bool) {
	v, err := strconv.ParseInt(strings.TrimSpace(c.arg(i).Value), 10, 64)
	return v, err == nil
}

// intsValue reads a recorded integer list argument such as "[1, 1]".
func (c *Call) intsValue(i int) ([]int64, bool) {
	s := strings.TrimSpace(c.arg(i).Value)
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return nil, false
	}
	inner := strings.TrimSpace(s[1 : len(s)-1])
	if inner == "" {
		return []int64{}, true
	}
	var out []int64
	for _, p := range strings.Split(inner, ",") {
		v, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		if err != nil {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

// boolsValue reads a recorded bool list argument such as "[True, False]".
func (c *Call) boolsValue(i int) ([]bool, bool) {
	s := strings.TrimSpace(c.arg(i).Value)
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return nil, false
	}
	var out []bool
	for _, p := range strings.Split(s[1:len(s)-1], ",") {
		switch strings.TrimSpace(p) {
		case "True", "true", "1":
			out = append(out, true)
		case "False", "false", "0":
			out = append(out, false)
		default:
			return nil, false
		}
	}
	return out, true
}

// mul multiplies non-negative integers; ok is false on overflow or a
// negative factor.
func mul(xs ...int64) (int64, bool) {
	p := int64(1)
	for _, x := range xs {
		if x < 0 {
			return 0, false
		}
		if x != 0 && p > math.MaxInt64/x {
			return 0, false
		}
		p *= x
	}
	return p, true
}

// add adds non-negative integers; ok is false on overflow.
func add(xs ...int64) (int64, bool) {
	s := int64(0)
	for _, x := range xs {
		if x < 0 || s > math.MaxInt64-x {
			return 0, false
		}
		s += x
	}
	return s, true
}

// numel is the number of elements of a tensor of these sizes.
func numel(dims []int64) (int64, bool) { return mul(dims...) }

// tensorBytes is numel times the dtype's size; ok is false when the dtype
// is unknown.
func tensorBytes(dims []int64, dtype string) (int64, bool) {
	size := DTypeSize(dtype)
	if size == 0 {
		return 0, false
	}
	n, ok := numel(dims)
	if !ok {
		return 0, false
	}
	return mul(n, size)
}
