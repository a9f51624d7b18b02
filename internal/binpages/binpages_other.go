//go:build !linux

// Package binpages lets go of the pages of tracetab's own executable that
// the process has mapped but will not read again (Linux only; elsewhere
// Release does nothing).
package binpages

// Release does nothing on this system.
func Release() {}
