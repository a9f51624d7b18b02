package cli

import (
	"os"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"
)

// widthAuto is the value of a --width flag that was not given: the text
// fits the terminal when stdout is one, and is not cut when it is piped
// (a file or another program gets every character).
const widthAuto = -1

// minWidth is the narrowest width text is laid out in.
const minWidth = 40

const widthHelp = "fit text output to this many columns, cutting long names in the middle (0: no limit); default: the terminal's width when the output is a terminal, no limit when it is piped"

// addWidthFlag adds the --width every text view takes.
func addWidthFlag(cmd *cobra.Command, w *int) { widthFlag(cmd.Flags(), w) }

// widthFlag adds --width to a flag set.
func widthFlag(f *pflag.FlagSet, w *int) { f.IntVar(w, "width", widthAuto, widthHelp) }

// checkWidth refuses a --width below minWidth (other than 0 and auto).
func checkWidth(w int) error {
	if w != widthAuto && w != 0 && (w < minWidth || w < 0) {
		return usageErrorf("--width %d: want 0 (no limit) or a number of columns from %d", w, minWidth)
	}
	return nil
}

// textWidth resolves a --width value: the value given, else the
// terminal's width when stdout is a terminal, else 0 (no limit).
func (e *env) textWidth(w int) int {
	if e.longNames {
		return 0 // full names: nothing is cut to fit
	}
	if w >= 0 {
		return w
	}
	if tw, ok := e.terminalWidth(); ok {
		return max(tw, minWidth)
	}
	return 0
}

// terminalWidth is stdout's width when stdout is a terminal ($COLUMNS
// when the terminal does not say).
func (e *env) terminalWidth() (int, bool) {
	ow, ok := e.stdout.(*outWriter)
	if !ok {
		return 0, false
	}
	f, ok := ow.w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0, false
	}
	if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
		return w, true
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n, true
	}
	return 80, true
}

// isTerminal reports whether stdout is a terminal (Unicode pictures
// instead of ASCII, widths from the terminal).
func (e *env) isTerminal() bool {
	_, ok := e.terminalWidth()
	return ok
}
