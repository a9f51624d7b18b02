package gaps

import (
	"strings"
	"unicode"

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
	for _, w := range nameWords(name) {
		for _, p := range InputPrepWords {
			if strings.HasPrefix(w, p) && !strings.HasPrefix(w, "transformer") {
				return true
			}
		}
	}
	return false
}

// nameWords splits a name into lower-case words at anything that is not a
// letter or digit and at lower-to-upper case changes (ImageProcessor ->
// image, processor).
func nameWords(s string) []string {
	var out []string
	var b strings.Builder
	var prev rune
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, r := range s {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(unicode.ToLower(r))
		}
		prev = r
	}
	flush()
	return out
}
