package cli

import (
	"bytes"
	"encoding/json"
	"html"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/tracetab/tracetab/internal/testenv"
)

var htmlTag = regexp.MustCompile(`<[^>]*>`)

// mdVisibleText renders Markdown as GitHub does (CommonMark with GFM
// tables; raw HTML dropped, as a sanitiser drops it) and returns the text
// a reader sees.
func mdVisibleText(t *testing.T, md string) string {
	t.Helper()
	var b bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert([]byte(md), &b); err != nil {
		t.Fatal(err)
	}
	return html.UnescapeString(htmlTag.ReplaceAllString(b.String(), ""))
}

// mdNames runs one command's JSON and returns the names its rows hold.
func mdNames(t *testing.T, field string, args ...string) []string {
	t.Helper()
	out, stderr, code := run(t, append(args, "--format", "json")...)
	if code != 0 {
		t.Fatalf("%v: exit %d %s", args, code, stderr)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var names []string
	rows, _ := doc[field].([]any)
	for _, r := range rows {
		if n, ok := r.(map[string]any)["name"].(string); ok {
			names = append(names, n)
		}
	}
	return names
}

// TestMarkdownKeepsNames: every row name of the op table and the kernel
// view stays visible in their Markdown once a CommonMark renderer with a
// sanitiser has read it (issue 19: MulFunctor<float> and <built-in
// function zoom_shift> were dropped as HTML tags).
func TestMarkdownKeepsNames(t *testing.T) {
	files := []string{testdata("sample.pt.trace.json")}
	if dir, ok := testenv.SharedDir(); ok {
		for _, f := range []string{"TraceLens__h100__gaunernst_bert-small-uncased__1016001.json.gz", "HTA__triton_example__triton_example.json.gz",
			"TraceLens__torch_compile_triton__trace.json.gz", "TraceLens__h100__google_owlv2-large-patch14-ensemble__1016001.json.gz"} {
			files = append(files, filepath.Join(dir, "traces", f))
		}
	} else {
		testenv.Shared(t)
	}
	checked := 0
	for _, f := range files {
		for _, c := range []struct {
			field string
			args  []string
		}{{"rows", []string{"table", "--demangle=false", "--limit", "-1", f}}, {"kernels", []string{"table", "--demangle=false", "--by", "kernel", "--limit", "-1", f}}} {
			names := mdNames(t, c.field, c.args...)
			md, _, code := run(t, append(c.args, "--format", "md")...)
			if code != 0 {
				t.Fatalf("%v --format md: exit %d", c.args, code)
			}
			seen := mdVisibleText(t, md)
			for _, n := range names {
				checked++
				if !strings.Contains(seen, n) {
					t.Errorf("%s %s: %q is not visible in the rendered Markdown", filepath.Base(f), c.args[0], n)
				}
			}
		}
	}
	if checked < 50 {
		t.Errorf("only %d names checked", checked)
	}
}
