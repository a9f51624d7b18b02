package layout

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// TestJSONValidUTF8: strings with invalid bytes or a surrogate's encoding
// come out as valid UTF-8 JSON that a strict parser reads, with U+FFFD in
// place of each bad sequence.
func TestJSONValidUTF8(t *testing.T) {
	var b bytes.Buffer
	in := map[string]any{"name": "a\xffb\xed\xa0\x80c", "ok": "é", "n": 3}
	if err := JSON(&b, in); err != nil {
		t.Fatal(err)
	}
	if !utf8.Valid(b.Bytes()) {
		t.Fatalf("not UTF-8: %q", b.Bytes())
	}
	var out map[string]any
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if out["name"] != "a\uFFFDb\uFFFDc" || out["ok"] != "é" || out["n"] != 3.0 {
		t.Fatalf("got %v", out)
	}
}
