// Package render turns analysis results into text, Markdown, CSV or JSON.
// It computes nothing: every number arrives ready.
package render

import (
	"bytes"
	"encoding/json"
	"io"

	jsoniter "github.com/json-iterator/go"
)

var jsonAPI = jsoniter.Config{
	EscapeHTML:             false,
	SortMapKeys:            true,
	ValidateJsonRawMessage: true,
}.Froze()

// JSON writes v as indented JSON followed by a newline. jsoniter
// encodes (fast, map keys sorted, no HTML escaping) and encoding/json's
// Indent lays it out: jsoniter's own MarshalIndent mis-indents maps and
// slices inside structs.
func JSON(w io.Writer, v any) error {
	b, err := jsonAPI.Marshal(v)
	if err != nil {
		return err
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
