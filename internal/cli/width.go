package cli

import "github.com/spf13/pflag"

// widthFlag adds --width to a command whose text output fits a width.
// The default (-1) is the width tracetab chooses: e.textWidth decides it.
func widthFlag(f *pflag.FlagSet, w *int) {
	f.IntVar(w, "width", -1, "text: fit lines to this many columns, cutting names in the middle (0: no limit; default: the terminal's width on a terminal, no limit when piped)")
}

// textWidth is the width text output fits: the --width value when given
// (0: no limit). It is the one place that will choose the default (-1)
// from the terminal; until then the default is no limit.
func (e *env) textWidth(flagValue int) int {
	return max(flagValue, 0)
}
