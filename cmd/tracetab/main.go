// Command tracetab prints profiler-style tables from PyTorch profiler traces.
package main

import (
	"os"

	"github.com/tracetab/tracetab/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
