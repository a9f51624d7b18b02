package gaps

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/tracetab/tracetab/internal/testenv"
)

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

// prepWordOf is hasPrepWord as it was written: the words made, then read.
func prepWordOf(name string) bool {
	for _, w := range nameWords(name) {
		for _, p := range InputPrepWords {
			if strings.HasPrefix(w, p) && !strings.HasPrefix(w, "transformer") {
				return true
			}
		}
	}
	return false
}

// TestHasPrepWordIsNameWords: hasPrepWord agrees with the words nameWords
// makes, on every name of the shared traces and on names made to break it.
func TestHasPrepWordIsNameWords(t *testing.T) {
	names := []string{"", "preprocess", "PreProcess", "ImageProcessor", "transformers.tokenize", "TransformerTokenizer",
		"data_collate_fn", "x\xffpreprocess", "ÉTransform", "İcollate", "aTransformer", "a.b(3): tokenize_batch",
		strings.Repeat("x", 100) + " collate", strings.Repeat("Ä", 40) + "preprocess", "12transform", "tokenizATION",
		"\u212apreprocess", "A\u0130collate"}
	for _, p := range testenv.SharedTraces(t) {
		tr, err := openCached(p)
		if err != nil {
			continue
		}
		t.Logf("%s: %d names", filepath.Base(p), len(tr.Strings))
		names = append(names, tr.Strings...)
	}
	for _, n := range names {
		if got, want := hasPrepWord(n), prepWordOf(n); got != want {
			t.Errorf("hasPrepWord(%q) = %v, the words say %v", n, got, want)
		}
	}
}
