package reportview

import (
	"html/template"
	"strings"
	"testing"
)

// oldTableBody is the template the rows were written with before
// tableBody, in the same context (a table's tbody).
var oldTableBody = template.Must(template.New("t").Parse(`<table><tbody>{{range .}}<tr>{{range .}}<td{{if .Num}} class="num"{{end}}{{if .Title}}{{if ne .Title .Text}} title="{{.Title}}"{{end}}{{end}} data-sort="{{.Sort}}">{{if .HTML}}{{.HTML}}{{else}}{{.Text}}{{end}}</td>{{end}}</tr>
{{end}}</tbody></table>`))

// TestTableBodyMatchesTemplate: tableBody writes the bytes html/template
// wrote from the cells, for names with every character it escapes,
// invalid UTF-8, U+2028, U+FFFD and U+FDD0, a histogram's markup, a
// title equal to the text and none.
func TestTableBodyMatchesTemplate(t *testing.T) {
	odd := []string{"", "aten::add", `a"b'c&d<e>f+g`, "nul\x00x", "bad\xff\xfeutf8", "line\u2028sep", "repl\uFFFD", "nonchar\uFDD0x",
		"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, T2, T3)",
		"\t\n\r tabs", "&amp; already", "100%", "é ü 中文", "\x7f\x01"}
	var rows [][]cellView
	for i, s := range odd {
		rows = append(rows, []cellView{
			{Text: s, Title: odd[(i+3)%len(odd)], Sort: s},
			{Text: s, Title: s, Sort: odd[(i+1)%len(odd)], Num: true},
			{HTML: template.HTML(`<svg class="hist"><rect data-count="3"><title>1 µs to 2 µs &lt;: 3</title></rect></svg>`), Sort: s},
			{Text: s},
			intCell(int64(i) - 7), durCell(int64(i) * 123456789), textCell(s),
		})
	}
	for _, rs := range [][][]cellView{rows, nil, {}} {
		var want strings.Builder
		if err := oldTableBody.Execute(&want, rs); err != nil {
			t.Fatal(err)
		}
		got := "<table><tbody>" + string(tableBody(rs)) + "</tbody></table>"
		if got != want.String() {
			t.Errorf("tableBody differs from the template:\n got %q\nwant %q", got, want.String())
		}
	}
}
