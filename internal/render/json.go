// Package render turns analysis results into text, Markdown, CSV or JSON.
// It computes nothing: every number arrives ready.
package render

import (
	"io"

	jsoniter "github.com/json-iterator/go"
)

var jsonAPI = jsoniter.Config{
	EscapeHTML:             false,
	SortMapKeys:            true,
	ValidateJsonRawMessage: true,
}.Froze()

// JSON writes v as indented JSON followed by a newline.
func JSON(w io.Writer, v any) error {
	b, err := jsonAPI.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}
