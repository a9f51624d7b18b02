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

// oldSteps is the template the steps' details were written with before
// stepsHTML, in the same context (a div).
var oldSteps = template.Must(template.New("s").Parse(`<div id="step-details">
{{range .}}<div class="step-detail" data-step="{{.Step}}" data-start-ns="{{.StartNs}}" data-end-ns="{{.EndNs}}" hidden>
<h3>{{.Title}}</h3>
<table class="step-roles">
{{range .Roles}}<tr class="role" data-key="{{.Key}}" data-ns="{{.Ns}}"><td><i style="background:{{.Color}}"></i>{{.Label}}</td><td class="num">{{.Text}}</td><td class="num">{{.Share}}</td></tr>
{{end}}{{with .Total}}<tr class="role total" data-key="{{.Key}}" data-ns="{{.Ns}}"><th>{{.Label}}</th><th class="num">{{.Text}}</th><th class="num">{{.Share}}</th></tr>{{end}}
</table>
{{if .Extended}}<p class="hint">{{.Extended}}</p>{{end}}
{{if .Row}}<table class="step-row">{{range .Row}}<tr class="figure" data-key="{{.Key}}" data-ns="{{.Ns}}"><td>{{.Label}}</td><td class="num">{{.Text}}</td></tr>{{end}}</table>{{end}}
{{if .Hist}}<div class="hint">{{.HistTitle}}</div>{{.Hist}}{{end}}
</div>
{{end}}</div>`))

// TestStepsHTMLMatchesTemplate: stepsHTML writes the bytes html/template
// wrote from the steps' details: the role colours of the page and other
// colours (names, functions, unsafe CSS, none), odd text in every field,
// negative and large numbers, with and without the optional parts.
func TestStepsHTMLMatchesTemplate(t *testing.T) {
	odd := []string{"", "Kernel", `a"b'c&d<e>f+g`, "nul\x00x", "bad\xff\xfeutf8", "line\u2028sep", "é ü 中文", "1.5 ms", "12.34%"}
	colors := []string{"red", "rgb(1,2,3)", "", "expression(alert(1))", "#", "#12g", "-moz-binding", "#ABCDEF", "#3f8f3a"}
	for _, c := range RoleColors {
		colors = append(colors, c)
	}
	var steps []stepDetail
	for i := range 12 {
		s := func(k int) string { return odd[(i+k)%len(odd)] }
		d := stepDetail{Step: int64(i*7 - 3), Cold: i%3 == 0, Title: s(0), StartNs: int64(i) * 1e12, EndNs: -int64(i),
			Total: figure{Key: s(1), Label: s(2), Text: s(3), Share: s(4), Ns: int64(i) << 40}}
		for r := range i % 8 {
			d.Roles = append(d.Roles, figure{Key: s(r), Label: s(r + 1), Text: s(r + 2), Share: s(r + 3), Ns: int64(r - 2), Color: colors[(i+r)%len(colors)]})
		}
		if i%2 == 0 {
			d.Extended = s(5)
			d.Row = []figure{{Key: "cpu_ns", Label: s(6), Text: s(7), Ns: 5}, {Key: s(8), Label: "GPU busy", Text: "1 ms", Ns: -1}}
			d.Hist, d.HistTitle = template.HTML(`<svg class="hist"><rect data-count="3"></rect></svg>`), s(2)
		}
		if i%4 == 1 {
			d.HistTitle = s(3) // no Hist: not written
		}
		steps = append(steps, d)
	}
	for _, st := range [][]stepDetail{steps, nil} {
		var want strings.Builder
		if err := oldSteps.Execute(&want, st); err != nil {
			t.Fatal(err)
		}
		got := "<div id=\"step-details\">\n" + string(stepsHTML(st)) + "</div>"
		if got != want.String() {
			t.Errorf("stepsHTML differs from the template:\n got %q\nwant %q", got, want.String())
		}
	}
}
