// Package layout is the one layer every view lays its output out with:
// the width a text view fits in (names cut in the middle, the
// distinguishing tail kept, prose wrapped), Markdown that a renderer shows
// as written (names in code spans, the rest escaped), CSV, and JSON.
//
// A view decides what to show; layout decides how it fits. Nothing here
// computes a number.
package layout
