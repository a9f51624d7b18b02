// Package render turns analysis results into text, Markdown, CSV or JSON.
// It computes nothing: every number arrives ready.
package render
