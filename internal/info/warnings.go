package info

import (
	"strings"

	"github.com/tracetab/tracetab/internal/trace"
)

// IsThreadRename reports whether w is the reader's "thread N is named
// twice" warning. Thread names are only shown (info's thread list, the
// thread of a dead window in gaps); no number depends on them, so the
// warning matters only where a renamed thread is listed.
func IsThreadRename(w trace.Warning) bool {
	return w.Key == "dup-thread-name" || (w.Key == "dup-meta" && strings.HasPrefix(w.Msg, "thread ") && strings.Contains(w.Msg, " is named twice"))
}

// renamesListedThread reports whether the renamed thread is one info lists
// (a CPU lane with events), where the name shown is the first of two.
func renamesListedThread(w trace.Warning, threads []Thread) bool {
	tid, _, ok := strings.Cut(strings.TrimPrefix(w.Msg, "thread "), " is named twice")
	if !ok {
		return true
	}
	for _, th := range threads {
		if th.TidString() == tid && th.Name != nil {
			return true
		}
	}
	return false
}
