package info

// eraMeaning says in one sentence what an era code names. The codes are
// tracetab's: "K" is Kineto, the number its generation of the trace format,
// the letter a variant within it; "legacy" is torch's exporter without
// Kineto.
var eraMeaning = map[string]string{
	"legacy":    "legacy: torch's own EventList exporter (torch built without Kineto): a bare array, integer microseconds from the start, no categories or args.",
	"K1":        "K1: Kineto's first trace format (torch 1.8-1.9, 2021): capitalised categories (Operator, Runtime, Kernel) and a lower-case \"external id\".",
	"K2a":       "K2a: Kineto of torch 1.10-1.11: cpu_op events, device categories still capitalised.",
	"K2b-early": "K2b-early: Kineto of torch 1.12 or earlier with today's category names and integer microsecond timestamps, without ev_idx.",
	"K2b":       "K2b: Kineto of torch 1.13-2.3: integer microsecond timestamps, ev_idx on ops, the CUPTI correlation as External id on kernels.",
	"K3a":       "K3a: Kineto of torch 2.4 or newer writing absolute epoch timestamps in microseconds with nanosecond decimals.",
	"K3":        "K3: Kineto of torch 2.4 or newer: microsecond timestamps with nanosecond decimals, relative to baseTimeNanoseconds.",
}

// EraMeaning returns the sentence for an era code, or "" for an unknown one.
func EraMeaning(code string) string { return eraMeaning[code] }

// EraCodes lists the codes in the order of their age (for docs and tests).
var EraCodes = []string{"legacy", "K1", "K2a", "K2b-early", "K2b", "K3a", "K3"}
