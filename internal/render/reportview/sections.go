package reportview

import (
	"html/template"

	"github.com/tracetab/tracetab/internal/units"
)

// categoriesView is the page's category section: the chart, the table
// beside it and its notes; Empty says why there is no chart.
type categoriesView struct {
	Chart template.HTML
	Rows  []categoryRow
	Notes []string
	Empty string
}

// modulesView is the page's module section: the tree and the lines above
// it; Empty says why there is no tree.
type modulesView struct {
	Summary string
	Note    string
	Tree    template.HTML
	Empty   string
}

func (v *view) categories(p *Page) {
	if p.In.Categories == nil {
		return
	}
	c := p.Cats
	if c == nil {
		v.Cats = &categoriesView{Empty: "The trace has no device work (kernels, memcpys or memsets): no categories."}
		if n := p.In.Categories.Kernels; n > 0 {
			v.Cats.Empty = "The trace's " + units.Plural(n, "device op has", "device ops have") + " no duration: no categories to draw."
		}
		return
	}
	v.Cats = &categoriesView{Chart: c.SVG(), Rows: c.Rows(), Notes: c.Notes}
}

func (v *view) modules(p *Page) {
	if p.In.Modules == nil {
		return
	}
	m := p.Modules
	if m == nil {
		v.Modules = &modulesView{Empty: "The trace has no nn.Module frames (record with with_modules=True or with_stack=True): no module tree."}
		return
	}
	v.Modules = &modulesView{Summary: m.Summary(), Note: m.Note(), Tree: m.HTML()}
}
