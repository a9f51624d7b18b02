// Package render turns analysis results into text, Markdown, CSV or JSON.
// It computes nothing: every number arrives ready.
package render

import (
	"bytes"
	"io"
	"unicode/utf8"

	jsoniter "github.com/json-iterator/go"
)

var jsonAPI = jsoniter.Config{
	EscapeHTML:             false,
	SortMapKeys:            true,
	ValidateJsonRawMessage: true,
}.Froze()

// JSON writes v as indented JSON followed by a newline. The output is
// always valid UTF-8: the parser mends the trace's strings (and warns), and
// any invalid sequence that still reaches a string here (the encoder copies
// bytes as they are) is replaced by U+FFFD, so a strict parser reads it.
func JSON(w io.Writer, v any) error {
	b, err := jsonAPI.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if !utf8.Valid(b) {
		// invalid bytes can only be inside strings: the JSON syntax is ASCII
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}
