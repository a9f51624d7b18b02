package names

import (
	"strings"
	"unicode"
)

// node is a C++ name read as a tree: a name without its namespaces and
// its template arguments. A leaf is a type, a number or a word.
type node struct {
	name     string
	args     []*node
	launched bool   // the argument of a launcher template, standing for it
	outer    string // the enclosing namespace or class, for a launcher's label
}

// render writes n as C++ would (without namespaces): Name<a, b>.
func (n *node) render() string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	n.write(&b)
	return b.String()
}

func (n *node) write(b *strings.Builder) {
	b.WriteString(n.name)
	if len(n.args) == 0 {
		return
	}
	b.WriteByte('<')
	for i, a := range n.args {
		if i > 0 {
			b.WriteString(", ")
		}
		a.write(b)
	}
	b.WriteByte('>')
}

// launchers are templates whose own name says nothing of the work
// (CUTLASS's Kernel<Op>, CK's kentry<N, Op>): the label is their first
// argument that is not a number.
var launchers = map[string]bool{"Kernel": true, "Kernel2": true, "kentry": true}

// generic are own names that say nothing without their class or
// namespace (gemvx::kernel).
var generic = map[string]bool{"kernel": true, "device_kernel": true, "Kernel": true}

// parseCxx reads a demangled C++ function name ("void ns::f<int, 4>(float*)
// const") into its function's node: the return type, the parameter list
// and the namespaces dropped. ok is false when s does not read as one.
func parseCxx(s string) (*node, bool) {
	s = strings.ReplaceAll(s, "(anonymous namespace)::", "")
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, false
	}
	end := len(s)
	if p := topLevel(s, '('); p > 0 {
		end = p
	}
	qual := s[:end]
	// the return type ends at the last space outside brackets
	if sp := lastTopLevelSpace(qual); sp >= 0 {
		qual = qual[sp+1:]
	}
	n := parseQualified(qual)
	if n == nil || n.name == "" {
		return nil, false
	}
	for depth := 0; launchers[n.name] && depth < 3; depth++ {
		var inner *node
		for _, a := range n.args {
			if !isNumber(a.name) && !plainType(a.name) {
				inner = a
				break
			}
		}
		if inner == nil {
			break
		}
		n = inner
		n.launched = true
	}
	if generic[n.name] && n.outer != "" {
		n.name = n.outer + "::" + n.name
	}
	return n, true
}

// parseQualified reads a qualified name with template arguments
// ("at::native::f<float>(...)::{lambda(float)#1}") as the node of its last
// meaningful component: lambdas and operator() stand for the function
// they are written in.
func parseQualified(s string) *node {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "const ")
	s = strings.TrimSuffix(s, " const")
	s = strings.TrimRight(s, "&* ")
	if strings.HasPrefix(s, "(") { // a cast: (cudnnKernelDataType_t)2
		if c := closing(s, 0); c > 0 && c+1 < len(s) {
			s = s[c+1:]
		}
	}
	parts := splitTop(s, "::")
	var comp, outer, lambda string
	for i := len(parts) - 1; i >= 0; i-- {
		p := strings.TrimSpace(parts[i])
		if strings.HasPrefix(p, "{lambda(") && lambda == "" {
			lambda = p[len("{lambda("):]
			if c := strings.Index(lambda, ")"); c >= 0 {
				lambda = lambda[:c]
			}
		}
		if p == "" || strings.HasPrefix(p, "{") || strings.HasPrefix(p, "operator") {
			continue
		}
		comp = p
		if i > 0 {
			outer = strings.TrimSpace(parts[i-1])
		}
		break
	}
	if comp == "" {
		return &node{name: strings.TrimSpace(s)}
	}
	// a function's parameters, or anything after its name, go
	if p := topLevel(comp, '('); p > 0 {
		comp = comp[:p]
	}
	n := &node{outer: outer}
	lt := topLevel(comp, '<')
	if lt < 0 {
		n.name = cleanLeaf(comp)
		// a lambda's parameter types are what its instances differ in
		// (direct_copy_kernel_cuda's {lambda(float)#1}): its arguments
		for _, a := range strings.Split(lambda, ",") {
			if a = cleanLeaf(strings.TrimPrefix(strings.TrimSpace(a), "c10::")); a != "" {
				n.args = append(n.args, &node{name: a})
			}
		}
		return n
	}
	n.name = cleanLeaf(comp[:lt])
	gt := closing(comp, lt)
	if gt < 0 {
		gt = len(comp)
	}
	for _, a := range splitTop(comp[lt+1:gt], ",") {
		if a = strings.TrimSpace(a); a != "" {
			n.args = append(n.args, parseQualified(a))
		}
	}
	return n
}

// cleanLeaf drops what says nothing in a label: qualifiers and the
// integer suffixes of template numbers (2ul is 2).
func cleanLeaf(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "const ")
	s = strings.TrimSuffix(s, " const")
	if len(s) > 1 && s[0] >= '0' && s[0] <= '9' || len(s) > 2 && s[0] == '-' {
		s = strings.TrimRight(s, "ulUL")
	}
	return s
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !unicode.IsDigit(r) && !(i == 0 && r == '-') {
			return false
		}
	}
	return true
}

var openOf = map[byte]byte{')': '(', '>': '<', '}': '{', ']': '['}

// topLevel is the index of the first c outside any bracket, or -1.
func topLevel(s string, c byte) int {
	var stack []byte
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if len(stack) == 0 && ch == c && i > 0 {
			return i
		}
		switch ch {
		case '(', '<', '{', '[':
			if ch == '<' && len(stack) > 0 && stack[len(stack)-1] == '(' {
				continue // a comparison inside an expression
			}
			stack = append(stack, ch)
		case ')', '>', '}', ']':
			if len(stack) > 0 && stack[len(stack)-1] == openOf[ch] {
				stack = stack[:len(stack)-1]
			}
		}
	}
	return -1
}

// closing is the index of the bracket that closes the one at open, or -1.
func closing(s string, open int) int {
	var stack []byte
	for i := open; i < len(s); i++ {
		ch := s[i]
		switch ch {
		case '(', '<', '{', '[':
			if ch == '<' && len(stack) > 0 && stack[len(stack)-1] == '(' {
				continue
			}
			stack = append(stack, ch)
		case ')', '>', '}', ']':
			if len(stack) > 0 && stack[len(stack)-1] == openOf[ch] {
				stack = stack[:len(stack)-1]
				if len(stack) == 0 {
					return i
				}
			}
		}
	}
	return -1
}

// splitTop splits s at each sep outside brackets.
func splitTop(s, sep string) []string {
	var out []string
	var stack []byte
	last := 0
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if len(stack) == 0 && strings.HasPrefix(s[i:], sep) {
			out = append(out, s[last:i])
			i += len(sep) - 1
			last = i + 1
			continue
		}
		switch ch {
		case '(', '<', '{', '[':
			if ch == '<' && len(stack) > 0 && stack[len(stack)-1] == '(' {
				continue
			}
			stack = append(stack, ch)
		case ')', '>', '}', ']':
			if len(stack) > 0 && stack[len(stack)-1] == openOf[ch] {
				stack = stack[:len(stack)-1]
			}
		}
	}
	return append(out, s[last:])
}

func lastTopLevelSpace(s string) int {
	var stack []byte
	at := -1
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch ch {
		case ' ':
			if len(stack) == 0 {
				at = i
			}
		case '(', '<', '{', '[':
			if ch == '<' && len(stack) > 0 && stack[len(stack)-1] == '(' {
				continue
			}
			stack = append(stack, ch)
		case ')', '>', '}', ']':
			if len(stack) > 0 && stack[len(stack)-1] == openOf[ch] {
				stack = stack[:len(stack)-1]
			}
		}
	}
	return at
}

// plainType: a built-in or numeric type, never the work a launcher runs.
func plainType(s string) bool {
	switch strings.TrimRight(s, "*& ") {
	case "int", "unsigned", "unsigned int", "long", "unsigned long", "bool", "char", "float", "double", "half", "short", "true", "false":
		return true
	}
	return strings.HasPrefix(s, "__") || strings.HasSuffix(s, "_t")
}
