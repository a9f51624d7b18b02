package names

import (
	"strconv"
	"strings"

	"github.com/tracetab/tracetab/internal/textwidth"
)

// LabelWidth is the width of the label JSON and CSV carry beside the
// full name: the room the name column keeps at 80 columns.
const LabelWidth = 36

// Labels gives each name of a view the label a person recognises within
// width columns (width <= 0: no limit), one rule for every text view:
//
//  1. Demangled by the view that calls it (Itanium _Z names; a view that
//     keeps names as written, --demangle=false, passes them so).
//  2. A C++ name loses its return type (void), its parameter list and its
//     namespaces (at::native::, (anonymous namespace)::, cutlass::); a
//     launcher template whose own name says nothing (CUTLASS's Kernel<Op>)
//     is labelled by its argument. Integer suffixes go (2ul is 2).
//  3. Template arguments that every row of the view with the same function
//     name shares are dropped, argument by argument down the tree, so what
//     is left is what tells those rows apart (a functor, a dtype, a vector
//     width, a tile). A function no other row shares keeps its name alone.
//  4. Long flat library names (cuBLAS/cuDNN sm90_xmma_..., Tensile Cijk_...)
//     keep their architecture, operation, data types, layout and tile.
//  5. A label still wider than width keeps the function's name whole when
//     it fits and cuts the middle of the rest; otherwise the middle of all.
//  6. Two different names that still read the same get their template
//     arguments back; then names of as many '_' words keep only the words
//     where their family differs (split...unweighted...cta... beside
//     split...weighted...warp...); as the last resort #2, #3 at the end.
//
// Equal names get equal labels. The input order is kept.
func Labels(in []string, width int) []string {
	items := map[string]*labelItem{}
	var order []*labelItem
	for _, s := range in {
		if _, ok := items[s]; !ok {
			it := newLabelItem(s)
			items[s] = it
			order = append(order, it)
		}
	}
	flatGroups := firstLabels(order, width)
	distinguish(order, width)
	elideShared(order, width)
	numberDuplicates(order, flatGroups, width)
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = items[s].label
	}
	return out
}

// labelItem is one distinct name of the view and its label under way.
type labelItem struct {
	full  string
	n     *node  // nil: not a C++ name
	flat  string // the label of a name that is not C++
	args  []*node
	label string
}

// newLabelItem parses name s (rule 2): a C++ name into its tree, except
// that a launcher whose one flat argument names the kernel (CUTLASS's
// kernel names) is that argument; a name that is not C++ loses a C
// function's parameter list (ncclKernel_...(ncclWorkElem)) and gets its
// flat label (rule 4).
func newLabelItem(s string) *labelItem {
	it := &labelItem{full: s}
	d := s // demangled by the view, or kept as written (--demangle=false)
	if looksCxx(d) {
		if n, ok := parseCxx(d); ok {
			it.n = n
			if n.launched && len(n.args) == 0 && strings.Count(n.name, "_") >= 3 && !strings.Contains(n.name, "::") {
				// a launcher's flat argument (CUTLASS's kernel names)
				it.n, d = nil, n.name
			}
		}
	}
	if it.n == nil {
		if p := strings.IndexByte(d, '('); p > 0 && d[p-1] != ' ' && !strings.ContainsAny(d[:p], " :") && strings.HasSuffix(d, ")") {
			d = d[:p]
		}
		it.flat = flatLabel(d)
	}
	return it
}

// firstLabels gives each item its label by rules 3-5: what each group of
// same-named functions (of flat names: same first word) shares is
// pruned. It returns the flat names' groups, by first word.
func firstLabels(order []*labelItem, width int) map[string][][]string {
	groups := map[string][]*labelItem{}
	flatGroups := map[string][][]string{}
	for _, it := range order {
		if it.n != nil {
			groups[it.n.name] = append(groups[it.n.name], it)
		}
	}
	for _, it := range order {
		if it.n == nil {
			f := strings.Split(it.flat, "_")
			flatGroups[f[0]] = append(flatGroups[f[0]], f)
		}
	}
	for _, it := range order {
		if it.n == nil {
			it.label = fit(flatShared(it.flat, flatGroups, width), "", width)
			continue
		}
		g := groups[it.n.name]
		nodes := make([]*node, len(g))
		for i, o := range g {
			nodes[i] = o.n
		}
		it.args = prunedArgs(nodes, indexOf(g, it))
		it.label = shortest(it.n.name, it.args, width)
	}
	return flatGroups
}

// fullerForms are rule 6's fuller forms of a C++ label, in the order
// tried: the core with its wrappers, the pruned arguments, all
// arguments.
var fullerForms = []func(*labelItem) string{
	func(it *labelItem) string { return it.n.name + renderArgs(dedup(chains(it.args))) },
	func(it *labelItem) string { return it.n.name + renderArgs(plain(it.args)) },
	func(it *labelItem) string { return it.n.name + renderArgs(it.args) },
	func(it *labelItem) string { return it.n.name + renderArgs(dedup(it.n.args)) },
}

// distinguish is rule 6: different names that read the same get, one by
// one, the first fuller form that fits whole and is nobody else's label.
func distinguish(order []*labelItem, width int) {
	for _, form := range fullerForms {
		byLabel := map[string][]*labelItem{}
		for _, it := range order {
			byLabel[it.label] = append(byLabel[it.label], it)
		}
		for _, same := range byLabel {
			if len(same) >= 2 {
				refine(same, byLabel, form, width)
			}
		}
	}
}

// refine gives each C++ item of a group that shares one label its form,
// when that fits in width, is unique in the group and no one's label.
func refine(same []*labelItem, byLabel map[string][]*labelItem, form func(*labelItem) string, width int) {
	cand := map[*labelItem]string{}
	count := map[string]int{}
	for _, it := range same {
		if it.n == nil {
			continue
		}
		c := form(it)
		if width > 0 && textwidth.Width(c) > width {
			continue
		}
		cand[it] = c
		count[c]++
	}
	for it, c := range cand {
		if count[c] == 1 && len(byLabel[c]) == 0 {
			it.label = c
		}
	}
}

// elideShared is rule 6's step before numbering: a group of names that
// still read the same, each of as many '_' words (of the function's name,
// or the flat name), keeps the words where its family differs (the names
// of the view with as many words and the same first word), each run of
// words the family shares one "..." (its first word and as many after it
// kept whole as fit),
// when every label of the group then fits in width, differs from the
// others' and is no one else's label. Groups are taken in the order of
// their first name.
func elideShared(order []*labelItem, width int) {
	byLabel := map[string][]*labelItem{}
	family := map[string][][]string{} // by word count and first word
	words := map[*labelItem][]string{}
	for _, it := range order {
		byLabel[it.label] = append(byLabel[it.label], it)
		core := it.flat
		if it.n != nil {
			core = it.n.name
		}
		w := strings.Split(core, "_")
		words[it] = w
		k := familyKey(w)
		family[k] = append(family[k], w)
	}
	done := map[string]bool{}
	for _, first := range order {
		l := first.label
		same := byLabel[l]
		if done[l] || len(same) < 2 {
			continue
		}
		done[l] = true
		labels := elidedLabels(same, words, family, width, byLabel)
		if labels == nil {
			continue
		}
		for i, it := range same {
			it.label = labels[i]
			byLabel[labels[i]] = []*labelItem{it}
		}
	}
}

func familyKey(w []string) string { return strconv.Itoa(len(w)) + "\x00" + w[0] }

// elidedLabels are elideShared's labels of group same, nil when they
// would not tell the group apart within width.
func elidedLabels(same []*labelItem, words map[*labelItem][]string, family map[string][][]string, width int, byLabel map[string][]*labelItem) []string {
	w0 := words[same[0]]
	if len(w0) < 3 {
		return nil
	}
	k := familyKey(w0)
	for _, it := range same {
		if familyKey(words[it]) != k {
			return nil
		}
	}
	fam := family[k]
	shared := make([]bool, len(w0))
	for p := range shared {
		shared[p] = true
		for _, w := range fam[1:] {
			if w[p] != fam[0][p] {
				shared[p] = false
				break
			}
		}
	}
	// the most leading words kept whole that fits, the first one always (a
	// label that starts with "..." hides what the name is of)
	for lead := len(w0) - 1; lead >= 1; lead-- {
		labels := make([]string, len(same))
		seen := map[string]bool{}
		ok := true
		for i, it := range same {
			l := elide(words[it], shared, lead)
			if (width > 0 && textwidth.Width(l) > width) || seen[l] || len(byLabel[l]) > 0 {
				ok = false
				break
			}
			seen[l] = true
			labels[i] = l
		}
		if ok {
			return labels
		}
	}
	return nil
}

// elide joins the words of w that are not shared, or among its first
// lead words, with '_', each run of the other words one "...".
func elide(w []string, shared []bool, lead int) string {
	var b strings.Builder
	prevKept := false
	for p, word := range w {
		if shared[p] && p >= lead {
			if prevKept || p == 0 {
				b.WriteString("...")
			}
			prevKept = false
			continue
		}
		if prevKept {
			b.WriteByte('_')
		}
		b.WriteString(word)
		prevKept = true
	}
	return b.String()
}

// numberDuplicates is rule 6's last resort: in order, a label someone
// earlier has becomes the label cut to leave room for #2, #3, ... with
// the first number that makes it unique.
func numberDuplicates(order []*labelItem, flatGroups map[string][][]string, width int) {
	taken := map[string]bool{}
	for _, it := range order {
		for k := 2; taken[it.label]; k++ {
			suf := "#" + strconv.Itoa(k)
			w := width
			if w > 0 {
				w -= len(suf)
			}
			if it.n != nil {
				it.label = shortest(it.n.name, it.args, w) + suf
			} else {
				it.label = Truncate(flatShared(it.flat, flatGroups, w), w) + suf
			}
		}
		taken[it.label] = true
	}
}

// Label is Labels of one name alone.
func Label(s string, width int) string { return Labels([]string{s}, width)[0] }

// looksCxx: a demangled C++ function (template arguments straight after a
// name, or a parameter list after a qualified name or a return type), not
// an op such as aten::mm, a Python frame or annotation such as
// enumerate(DataLoader)#..., or "Memcpy HtoD (Host -> Device)".
func looksCxx(s string) bool {
	p := strings.IndexByte(s, '(')
	for i := 1; i < len(s); i++ {
		c := s[i-1]
		if s[i] == '<' && (c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return true
		}
	}
	return p > 0 && s[p-1] != ' ' && (strings.Contains(s[:p], "::") || strings.HasPrefix(s, "void "))
}

func indexOf[T comparable](xs []T, x T) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// prunedArgs is the args of nodes[k] without those every node shares, by
// position and down the tree: an argument all nodes give alike goes; one
// whose name all share keeps its name and loses the sub-arguments they
// share. Nodes of different arity keep all their arguments.
func prunedArgs(nodes []*node, k int) []*node {
	if len(nodes) < 2 {
		return nil
	}
	arity := len(nodes[0].args)
	for _, n := range nodes {
		if len(n.args) != arity {
			return dedup(nodes[k].args)
		}
	}
	var out []*node
	for p := 0; p < arity; p++ {
		col := make([]*node, len(nodes))
		same, sameName := true, true
		for i, n := range nodes {
			col[i] = n.args[p]
			if col[i].render() != col[0].render() {
				same = false
			}
			if col[i].name != col[0].name {
				sameName = false
			}
		}
		switch {
		case same:
		case sameName && len(col[k].args) > 0:
			out = append(out, &node{name: col[k].name, args: prunedArgs(col, k)})
		default:
			out = append(out, col[k])
		}
	}
	return dedup(out)
}

// dedup drops an argument equal to the one before it (float, float, float
// reads float).
func dedup(args []*node) []*node {
	var out []*node
	for i, a := range args {
		if i > 0 && a.render() == args[i-1].render() {
			continue
		}
		out = append(out, a)
	}
	return out
}

func renderArgs(args []*node) string {
	if len(args) == 0 {
		return ""
	}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.render()
	}
	return "<" + strings.Join(parts, ", ") + ">"
}

// fit joins name and its argument text within width columns: whole when it
// fits; else the name whole and the middle of the arguments cut; else the
// middle of all of it cut.
func fit(name, args string, width int) string {
	s := name + args
	if width <= 0 || textwidth.Width(s) <= width {
		return s
	}
	room := width - textwidth.Width(name)
	if args != "" && room >= len(Ellipsis)+4 {
		return name + "<" + textwidth.Head(args[1:len(args)-1], room-2-len(Ellipsis)) + Ellipsis + ">"
	}
	if room >= 0 {
		return name
	}
	return Truncate(s, width)
}

// shortest is the label with its arguments cut to their core (coreOf),
// fitted to width; a name whose arguments have no core keeps its name.
func shortest(name string, args []*node, width int) string {
	var core []*node
	for _, a := range args {
		if c := coreOf(a); !isNumber(c.name) && !plainType(c.name) && !dtype(c.name) && !mechanismTypes[c.name] {
			core = append(core, c)
		}
	}
	return fit(name, renderArgs(dedup(core)), width)
}

// coreOf is the work an argument names with the mechanism around it
// dropped: a wrapper's innermost argument that is itself named work
// (BinaryFunctor<BFloat16, MulFunctor<float>> is MulFunctor<float>), its
// name without the words every such functor carries (Functor, CUDAFunctor_,
// _kernel_cuda, ...), and without its plain type arguments.
func coreOf(n *node) *node {
	for {
		var inner *node
		for _, a := range n.args {
			if len(a.args) > 0 || !plainType(a.name) && !isNumber(a.name) && !dtype(a.name) && a.name != "true" && a.name != "false" {
				inner = a
			}
		}
		if inner == nil {
			break
		}
		n = inner
	}
	return &node{name: stripped(n.name)}
}

// mechanismWords are dropped from a core's name: they say how PyTorch
// dispatches the work, not what it is.
var mechanismWords = []string{"CUDAFunctorOnSelf_", "CUDAFunctor_", "Functor", "_kernel_cuda", "_kernel_impl", "CUDAKernelImpl", "_kernel"}

// mechanismTypes are arguments that say how a kernel reads its operands
// (their count, offsets, casts), left out of a label cut to its core.
var mechanismTypes = map[string]bool{"array": true, "Array": true, "TrivialOffsetCalculator": true, "OffsetCalculator": true,
	"LoadWithCast": true, "StoreWithCast": true, "LoadWithoutCast": true, "StoreWithoutCast": true}

// dtype: a tensor element type as template arguments spell it.
func dtype(s string) bool {
	switch s {
	case "BFloat16", "Half", "float2", "half2", "Float8_e4m3fn", "Float8_e5m2", "complex<float>", "bfloat16_t":
		return true
	}
	return false
}

// chains is each argument as its core inside its wrappers, each name
// without the mechanism words: AUnaryFunctor<BFloat16, MulFunctor<float>>
// reads AUnary<Mul>.
func chains(args []*node) []*node {
	var out []*node
	for _, a := range args {
		c := coreOf(a)
		if isNumber(c.name) || plainType(c.name) || dtype(c.name) || mechanismTypes[c.name] {
			continue
		}
		if w := stripped(a.name); len(a.args) > 0 && w != c.name {
			c = &node{name: w, args: []*node{c}}
		}
		out = append(out, c)
	}
	return out
}

func stripped(name string) string {
	s := name
	for _, w := range mechanismWords {
		s = strings.ReplaceAll(s, w, "")
	}
	if s = strings.Trim(s, "_"); s == "" {
		return name
	}
	return s
}

// plain is args with every name stripped of the mechanism words and the
// mechanism types left out, down the tree: AUnary<BFloat16, Mul<float>>.
func plain(args []*node) []*node {
	var out []*node
	for _, a := range args {
		if mechanismTypes[a.name] {
			continue
		}
		out = append(out, &node{name: stripped(a.name), args: plain(a.args)})
	}
	return dedup(out)
}

// flatShared is a flat name too wide for width without the fields every
// other name of its family (its first field) in the view has too: what is
// left tells them apart.
func flatShared(s string, groups map[string][][]string, width int) string {
	if width <= 0 || textwidth.Width(s) <= width {
		return s
	}
	f := strings.Split(s, "_")
	g := groups[f[0]]
	if len(g) < 2 {
		return s
	}
	keep := []string{f[0]}
	for _, x := range f[1:] {
		shared := true
		for _, o := range g {
			if indexOf(o, x) < 0 {
				shared = false
				break
			}
		}
		if !shared {
			keep = append(keep, x)
		}
	}
	if len(keep) == 1 {
		return s
	}
	return strings.Join(keep, "_")
}
