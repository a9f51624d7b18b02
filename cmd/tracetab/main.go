// Command tracetab prints profiler-style tables from PyTorch profiler traces.
package main

import (
	"os"

	"github.com/tracetab/tracetab/internal/binpages"
	"github.com/tracetab/tracetab/internal/cli"
)

func main() {
	// the pages that initialisation touched are not read again
	binpages.Release()
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
