// Package cli is tracetab's command line: one file per command, one place
// (exit.go) that decides exit codes. Only this package writes to the
// process's streams.
package cli

import (
	"io"
	"os"
	"runtime/pprof"

	"github.com/spf13/cobra"

	"github.com/tracetab/tracetab/internal/info"
	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/safe"
	"github.com/tracetab/tracetab/internal/trace"
)

// Version is set at build time with -ldflags "-X .../cli.Version=...".
var Version = "dev"

// env is what commands need from the outside world.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	allowTruncated bool
	demangle       bool // show C++ names demangled in text output
	longNames      bool // --long-names: full names in text, no width limit
	maxMemory      maxMemoryFlag
	loading        string // the trace being read or analysed, for messages
	shapesOnly     bool   // load keeps only the shapes among the extras (parse.Options.ShapesOnly)
	sharedTrace    bool   // a trace was read from the tests' cache (testOpen)
	cpuProfile     string
	stopProfile    func()
	completing     bool // the shell asks for completions (completion.go)
}

// Main runs tracetab with args (without the program name) and returns the
// process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	// Most of the heap is pointer-free event storage that lives to the
	// end: a lower GC target costs little time and keeps the peak near the
	// live size. Measured on a 1 GB trace (medians of 5, same minute): 20
	// instead of 40 takes the same CPU time for info and table and lowers
	// table's peak RSS from 261 to 235 MiB (its peak is in the parse).
	setGCPercent(20)
	stderr = wrapStderr(stderr) // notes fit a terminal
	if ww, ok := stderr.(*wrapWriter); ok {
		defer ww.Flush()
	}
	out := &outWriter{w: stdout}
	e := &env{stdin: stdin, stdout: out, stderr: stderr, completing: completionRequest(args)}
	// a panic anywhere (the goroutines carry theirs here) is one line and
	// exit 3, never a goroutine dump
	defer func() {
		if r := recover(); r != nil {
			code = exitCode(safe.New(r), stderr, e.loading)
		}
	}()
	root := newRoot(e)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(out)
	root.SetErr(stderr)
	err := root.Execute()
	if e.stopProfile != nil {
		e.stopProfile()
	}
	if out.err != nil {
		err = &writeError{out.err}
	}
	return exitCode(err, stderr, e.loading)
}

func newRoot(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "tracetab",
		Short: "Profiler-style tables from PyTorch profiler traces",
		Long: `tracetab reads the Chrome trace that torch.profiler exports (.json or .json.gz,
any era from 2021 on, kilobytes to gigabytes) and answers in tables: what takes
the time, where the GPU waits, how a Python call became a kernel.

Exit codes: 0 ok, 1 a check failed, 2 usage error, 3 unreadable input, too
large for --max-memory, or an internal error (please report it).`,
		Example: `  tracetab info trace.json.gz
  tracetab table trace.json.gz --sort self_cuda_time_total --limit 20
  tracetab table trace.json --by kernel
  tracetab gaps trace.json.gz
  tracetab chain trace.json matmul_add
  tracetab ranks traces/
  tracetab diff base.json.gz new.json.gz --fail-on 'self_cuda>10%&50us'
  tracetab check trace.json.gz --budget perf/budget.yaml
  cat trace.json | tracetab info -`,
		Version:       version(),
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.PersistentFlags().BoolVar(&e.allowTruncated, "allow-truncated", false,
		"analyse a truncated trace up to its last complete event (with a warning)")
	root.PersistentFlags().Var(&e.maxMemory, "max-memory",
		"memory bound (e.g. 8GB, 512MiB; 0: none); a trace that needs more stops with exit 3")
	root.PersistentFlags().BoolVar(&e.demangle, "demangle", true,
		"show mangled C++ names (_Z...) demangled in text and Markdown; JSON and CSV keep the name as written (--demangle=false: as written everywhere)")
	root.PersistentFlags().BoolVar(&e.longNames, "long-names", false,
		"text: print full names instead of labels (no width limit: lines may be wider than the terminal)")
	root.PersistentFlags().StringVar(&e.cpuProfile, "cpuprofile", "", "write a Go CPU profile of tracetab itself to this file")
	root.PersistentFlags().MarkHidden("cpuprofile")
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		e.applyMaxMemory()
		if err := checkFlagValues(cmd); err != nil {
			return err
		}
		if e.cpuProfile == "" {
			return nil
		}
		f, err := os.Create(e.cpuProfile)
		if err != nil {
			return usageErrorf("--cpuprofile: %v", err)
		}
		e.stopProfile = func() { pprof.StopCPUProfile(); f.Close() }
		return pprof.StartCPUProfile(f)
	}
	root.SetFlagErrorFunc(flagError)
	// --version prints what the version command prints
	root.SetVersionTemplate(buildLine() + "\n")
	root.AddCommand(newInfoCmd(e), newTableCmd(e), newGapsCmd(e), newChainCmd(e), newDiffCmd(e), newCheckCmd(e))
	root.AddCommand(newCompileCmd(e), newRanksCmd(e))
	root.AddCommand(newRooflineCmd(e))
	root.AddCommand(newMemoryCmd(e))
	root.AddCommand(newReportCmd(e))
	root.AddCommand(newCropCmd(e), newExportCmd(e))
	root.AddCommand(newCritPathCmd(e))
	root.AddCommand(newTrendCmd(e))
	root.AddCommand(newVersionCmd(e))
	groupCommands(root)
	wrapHelp(root, e)
	return root
}

// load reads one trace and prints its warnings to stderr; on a terminal,
// a large file shows its progress meanwhile.
func (e *env) load(path string) (*trace.Trace, error) { return e.loadWith(path, false) }

// loadLean is load for the commands that never read shapes, stacks
// or launch parameters (parse.Options.NoExtras): the reading is
// faster and the trace smaller.
func (e *env) loadLean(path string) (*trace.Trace, error) { return e.loadWith(path, true) }

// loadBare is loadLean for the commands that never attribute memory either
// (parse.Options.NoMemory: the [memory] records are counted, not stored).
func (e *env) loadBare(path string) (*trace.Trace, error) {
	return e.loadOpts(path, parse.Options{NoExtras: true, NoMemory: true})
}

func (e *env) loadWith(path string, lean bool) (*trace.Trace, error) {
	return e.loadOpts(path, parse.Options{NoExtras: lean})
}

// loadOpts is load with the reading options of a command (what it may
// skip); the user's flags are added.
func (e *env) loadOpts(path string, opts parse.Options) (*trace.Trace, error) {
	e.loading = path
	opts.AllowTruncated, opts.Stdin, opts.MaxMemory, opts.ShapesOnly = e.allowTruncated, e.stdin, e.maxMemory.bytes, e.shapesOnly
	if stop := e.showProgress(path, &opts); stop != nil {
		defer stop()
	}
	releaseBefore(path)
	var t *trace.Trace
	var err error
	if testOpen != nil {
		var shared bool
		t, shared, err = testOpen(path, opts)
		e.sharedTrace = e.sharedTrace || shared
	} else {
		t, err = parse.Open(path, opts)
	}
	if err != nil {
		return nil, err
	}
	releaseAfter(t.BytesRead)
	printWarnings(e.stderr, t)
	if afterLoad != nil {
		afterLoad(t)
	}
	return t, nil
}

// afterLoad, when set (by tests), runs on every trace once it is read.
var afterLoad func(*trace.Trace)

// testOpen, when set (by tests: internal/testcache), reads traces in place
// of parse.Open; shared says the trace is shared with other commands of
// the test binary, which then keep every part of it (letGo).
var testOpen func(path string, opts parse.Options) (t *trace.Trace, shared bool, err error)

// letGo runs drop, which lets go of parts of the trace the command no
// longer reads (to lower its peak memory); a trace the tests share keeps
// them.
func (e *env) letGo(drop func()) {
	if !e.sharedTrace {
		drop()
	}
}

// printWarnings prints the reader's warnings, except the "thread named
// twice" one: no number depends on a thread's name; info lists it where a
// renamed thread is shown.
func printWarnings(w io.Writer, t *trace.Trace) {
	for _, wa := range t.Warnings {
		if info.IsThreadRename(wa) {
			continue
		}
		msg := wa.Msg
		if wa.Count > 1 {
			msg += " (" + itoa(wa.Count) + " times)"
		}
		io.WriteString(w, "tracetab: warning: "+t.File+": "+msg+"\n")
	}
}
