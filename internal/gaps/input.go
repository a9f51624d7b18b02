package gaps

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tracetab/tracetab/internal/trace"
)

// InputPrepWords are the words that name input preparation: a Python
// function or an annotation one of whose words starts with one of these
// is input preparation, and its time (with everything under it) counts
// toward the input cause even outside the DataLoader. A word starting with
// "transformer" is not one (torch.nn.Transformer, Hugging Face's
// transformers package).
var InputPrepWords = []string{"preprocess", "collate", "transform", "tokeniz", "processor"}

// isInputPrep reports whether an event names input preparation. Only the
// function of a Python frame ("file.py(12): preprocess_images", "<built-in
// function resize>") is read, never its file or directory, and never a
// module frame ("nn.Module: LogitsProcessor_0", model code); an
// annotation is read whole.
func isInputPrep(kind trace.Kind, name string) bool {
	switch kind {
	case trace.KindPython:
		if strings.HasPrefix(name, "nn.Module: ") {
			return false
		}
		if i := strings.LastIndex(name, "): "); i >= 0 {
			name = name[i+3:]
		} else if rest, ok := strings.CutPrefix(name, "<built-in "); ok {
			name = strings.TrimSuffix(rest, ">")
			if f := strings.Fields(name); len(f) >= 2 {
				name = f[1] // "function resize", "method tokenize of ..."
			}
		}
	case trace.KindAnnotation:
	default:
		return false
	}
	return hasPrepWord(name)
}

// hasPrepWord reports whether a word of name (nameWords) starts with one of
// InputPrepWords and not with "transformer", reading the words in place:
// nameWords made a string of each word of every distinct name (0.65 MB a
// run on the 200 MB default trace, twice per name).
func hasPrepWord(name string) bool {
	var buf [64]byte
	w := buf[:0] // the current word, lower case
	var prev rune
	check := func() bool {
		if len(w) == 0 {
			return false
		}
		word := w
		w = w[:0]
		if bytesHasPrefix(word, "transformer") {
			return false
		}
		for _, p := range InputPrepWords {
			if bytesHasPrefix(word, p) {
				return true
			}
		}
		return false
	}
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			if check() {
				return true
			}
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			if check() {
				return true
			}
			w = utf8.AppendRune(w, unicode.ToLower(r))
		default:
			w = utf8.AppendRune(w, unicode.ToLower(r))
		}
		prev = r
	}
	return check()
}

func bytesHasPrefix(b []byte, p string) bool { return len(b) >= len(p) && string(b[:len(p)]) == p }
