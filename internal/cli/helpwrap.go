package cli

import (
	"bytes"
	"io"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tracetab/tracetab/internal/layout"
)

// wrapHelp makes --help fit the terminal (80 columns when piped): the help
// cobra writes is laid out as usual, then each line wider than that breaks
// between words, a flag's description under its own column, an example
// under its command, prose under its first word.
func wrapHelp(root *cobra.Command, e *env) {
	plain := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		var buf bytes.Buffer
		out := c.OutOrStdout()
		c.SetOut(&buf)
		plain(c, args)
		c.SetOut(out)
		width := 80
		if tw, ok := e.terminalWidth(); ok {
			width = max(tw, minWidth)
		}
		io.WriteString(out, wrapHelpText(buf.String(), width))
	})
}

// flagLine matches a flag's line: its name (and value type) and the gap
// before its description.
var flagLine = regexp.MustCompile(`^(\s+(?:-\w, )?--[\w-]+(?: \w+)?\s{2,})\S`)

func wrapHelpText(s string, width int) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		body := strings.TrimSuffix(line, "\n")
		if layout.Width(body) <= width {
			b.WriteString(line)
			continue
		}
		lead := len(body) - len(strings.TrimLeft(body, " "))
		prefix, indent := body[:lead], strings.Repeat(" ", lead+2)
		if m := flagLine.FindStringSubmatch(body); m != nil {
			prefix, indent = m[1], strings.Repeat(" ", layout.Width(m[1]))
		}
		b.WriteString(strings.Join(layout.BreakWords(prefix, body[len(prefix):], width, indent), "\n"))
		if strings.HasSuffix(line, "\n") {
			b.WriteString("\n")
		}
	}
	return b.String()
}
