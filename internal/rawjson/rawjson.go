// Package rawjson is the tests' own reading of a trace's numbers, apart
// from the parser: a timestamp or duration as written (microseconds, a
// JSON number or a string) to whole nanoseconds by exact decimal
// arithmetic, and an id as its text. Tests compute the truth with it.
package rawjson

import (
	"encoding/json"
	"fmt"
	"math/big"
)

// Ns is v (microseconds, a json.Number or a string) in nanoseconds,
// truncated toward zero; 0 for anything else (absent, null, a bool).
func Ns(v any) (int64, error) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = x.String()
	case string:
		s = x
	default:
		return 0, nil
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return 0, fmt.Errorf("bad number %q", s)
	}
	r.Mul(r, big.NewRat(1000, 1))
	return new(big.Int).Quo(r.Num(), r.Denom()).Int64(), nil
}

// ID is an id as written: a number's digits or a string; "" otherwise.
func ID(v any) string {
	switch x := v.(type) {
	case json.Number:
		return x.String()
	case string:
		return x
	}
	return ""
}
