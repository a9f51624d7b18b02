package layout

import (
	"bytes"
	"encoding/json"
	"io"
	"unicode/utf8"

	jsoniter "github.com/json-iterator/go"

	"github.com/tracetab/tracetab/internal/names"
)

var truncate = names.Truncate

var jsonAPI = jsoniter.Config{
	EscapeHTML:             false,
	SortMapKeys:            true,
	ValidateJsonRawMessage: true,
}.Froze()

// JSON writes v as indented JSON followed by a newline. jsoniter
// encodes (fast, map keys sorted, no HTML escaping) and encoding/json's
// Indent lays it out: jsoniter's own MarshalIndent mis-indents maps and
// slices inside structs.
// The output is always valid UTF-8: the parser mends the trace's strings
// (and warns), and any invalid sequence that still reaches a string here
// (the encoder copies bytes as they are) is replaced by U+FFFD.
func JSON(w io.Writer, v any) error {
	b, err := jsonAPI.Marshal(v)
	if err != nil {
		return err
	}
	if !utf8.Valid(b) {
		// invalid bytes can only be inside strings: the JSON syntax is ASCII
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	var out bytes.Buffer
	out.Grow(len(b) + len(b)/2)
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	_, err = w.Write(out.Bytes())
	return err
}
