package parse

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
	"github.com/tracetab/tracetab/internal/testenv"
	"github.com/tracetab/tracetab/internal/trace"
)

func gzipped(t *testing.T, text []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(text)
	zw.Close()
	return b.Bytes()
}

func writeBytes(t *testing.T, name string, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// spoolSizes is one way of cutting the gzip parallel reading small.
type spoolSizes struct {
	seg, ahead, window int64
	block              int
}

func (z spoolSizes) String() string {
	return fmt.Sprintf("segment %d block %d ahead %d window %d", z.seg, z.block, z.ahead, z.window)
}

// readGzBoth reads the gzip file at path sequentially and in parallel cut
// by z, and returns both readings.
func readGzBoth(t *testing.T, path string, opts Options, z spoolSizes) (*trace.Trace, error, *trace.Trace, error) {
	t.Helper()
	defer func(a, b, c, d int64, e int) {
		gzParallelMin, spoolSegment, spoolAhead, spoolWindow, spoolBlock = a, b, c, d, e
	}(gzParallelMin, spoolSegment, spoolAhead, spoolWindow, spoolBlock)
	o := opts
	o.Sequential = true
	seq, serr := Open(path, o)
	gzParallelMin, spoolSegment, spoolAhead, spoolWindow, spoolBlock = 1, z.seg, z.ahead, z.window, z.block
	spoolMerged.Store(-1)
	par, perr := Open(path, opts)
	if n := spoolMerged.Load(); perr == nil && serr == nil && n < 2 && seq.BytesRead > 4*z.seg {
		t.Fatalf("%s: the parallel reading merged %d segments", z, n)
	}
	return seq, serr, par, perr
}

// sameReading asserts both readings agree: the same trace, or the same
// error at the same offset.
func sameReading(t *testing.T, what string, seq *trace.Trace, serr error, par *trace.Trace, perr error) {
	t.Helper()
	if serr != nil || perr != nil {
		if serr == nil || perr == nil || serr.Error() != perr.Error() {
			t.Fatalf("%s: errors differ:\nsequential %v\nparallel   %v", what, serr, perr)
		}
		return
	}
	equalTraces(t, what, seq, par)
}

// The cuts the tests use: segments of prime sizes (cuts inside strings of
// every length and inside every kind of event), blocks smaller and larger
// than a segment (a segment spread over blocks, a block holding many),
// the decoder held to a few segments ahead (it waits, and is made to go on
// by the parser the merge waits for), windows shorter than a segment.
var spoolCuts = []spoolSizes{
	{41, 200, 64 << 10, 7},
	{53, 53 * 4, 17, 4096},
	{89, 89 * 3, 89, 13},
	{131, 1 << 20, 64 << 10, 64},
	{211, 211 * 5, 100, 211},
	{397, 397 * 2, 64 << 10, 1000},
	{4096, 4096 * 3, 64 << 10, 1 << 20},
}

// TestGzipParallelAdversarial: the adversarial trace gzipped reads in
// parallel exactly as sequentially, warnings and their offsets included,
// at every kind of cut.
func TestGzipParallelAdversarial(t *testing.T) {
	path := writeBytes(t, "adv.json.gz", gzipped(t, []byte(adversarial(400, 97))))
	for _, z := range spoolCuts {
		seq, serr, par, perr := readGzBoth(t, path, Options{}, z)
		if serr != nil {
			t.Fatal(serr)
		}
		sameReading(t, z.String(), seq, serr, par, perr)
	}
}

// TestGzipParallelTruncated: JSON cut short then gzipped, and gzip data
// cut short (inside the compressed data, before the trailer), and
// corrupt compressed data: the same error at the same offset, or with
// AllowTruncated the same events, bytes read and warnings, in parallel.
func TestGzipParallelTruncated(t *testing.T) {
	full := []byte(adversarial(300, 61))
	gz := gzipped(t, full)
	inputs := map[string][]byte{}
	for _, cut := range []int{len(full) / 3, len(full) / 2, len(full) - 40, len(full) - 5, len(full) - 1} {
		inputs[fmt.Sprintf("json cut at %d", cut)] = gzipped(t, full[:cut])
	}
	for _, cut := range []int{len(gz) / 3, len(gz) / 2, len(gz) - 9, len(gz) - 3} {
		inputs[fmt.Sprintf("gzip cut at %d", cut)] = gz[:cut]
	}
	bad := bytes.Clone(gz)
	bad[len(bad)/2] ^= 0x55
	inputs["corrupt"] = bad
	bad2 := bytes.Clone(gz)
	bad2[len(bad2)-6] ^= 1 // the CRC
	inputs["bad checksum"] = bad2
	inputs["padding"] = append(bytes.Clone(gz), make([]byte, 700)...)
	inputs["two members"] = append(gzipped(t, full[:len(full)/2]), gzipped(t, full[len(full)/2:])...)
	inputs["junk after"] = append(bytes.Clone(gz), "junk"...)
	for name, data := range inputs {
		path := writeBytes(t, "cut.json.gz", data)
		for _, z := range []spoolSizes{spoolCuts[0], spoolCuts[5]} {
			what := name + ", " + z.String()
			seq, serr, par, perr := readGzBoth(t, path, Options{}, z)
			sameReading(t, what, seq, serr, par, perr)
			seq, serr, par, perr = readGzBoth(t, path, Options{AllowTruncated: true}, z)
			sameReading(t, what+", truncated allowed", seq, serr, par, perr)
		}
	}
}

// TestGzipParallelLongString: one string much longer than a segment and
// than the decoder's lead, holding text that reads like events: the
// parallel reading equals the sequential one (the parser the merge waits
// for makes the decoder go on).
func TestGzipParallelLongString(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"traceEvents":[{"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":1},`)
	b.WriteString(`{"ph":"X","cat":"cpu_op","name":"big","pid":1,"tid":1,"ts":2,"dur":1,"args":{"s":"`)
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, `,{ \"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"fake%d\",\"pid\":0,\"tid\":7,\"ts\":%d,\"dur\":5}`, i, i)
	}
	b.WriteString(`"}}`)
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, `,{"ph":"X","cat":"cpu_op","name":"after%d","pid":1,"tid":1,"ts":%d,"dur":1}`, i%10, 10+i)
	}
	b.WriteString(`]}`)
	path := writeBytes(t, "long.json.gz", gzipped(t, []byte(b.String())))
	for _, z := range []spoolSizes{{4093, 3 * 4093, 64 << 10, 4096}, {65536, 65536, 1024, 1 << 16}} {
		seq, serr, par, perr := readGzBoth(t, path, Options{}, z)
		if serr != nil || seq.NumEvents() != 2002 {
			t.Fatalf("sequential: %v, %d events", serr, seq.NumEvents())
		}
		sameReading(t, z.String(), seq, serr, par, perr)
	}
}

// TestGzipParallelKineto: the Kineto benchmark shape gzipped, read fully,
// lean and without memory, is the same in parallel as sequentially, and
// the same as the plain file read in parallel.
func TestGzipParallelKineto(t *testing.T) {
	var buf bytes.Buffer
	if _, err := gen.Write(&buf, gen.Config{Steps: 12, Layers: 4, Kineto: gen.KinetoStyle()}); err != nil {
		t.Fatal(err)
	}
	path := writeBytes(t, "k.json.gz", gzipped(t, buf.Bytes()))
	plain := writeBytes(t, "k.json", buf.Bytes())
	for _, o := range []Options{{}, {NoExtras: true}, {NoExtras: true, NoMemory: true}} {
		for _, z := range []spoolSizes{{1531, 4 * 1531, 64 << 10, 1000}, {65536, 4 * 65536, 64 << 10, 1 << 20}} {
			seq, serr, par, perr := readGzBoth(t, path, o, z)
			if serr != nil || seq.MemRecords == 0 {
				t.Fatalf("%+v: %v, %d memory records", o, serr, seq.MemRecords)
			}
			sameReading(t, fmt.Sprintf("%+v %s", o, z), seq, serr, par, perr)
			_, _, pp, err := readBoth(t, plain, o, 4096)
			if err != nil {
				t.Fatal(err)
			}
			pp.File = par.File
			equalTraces(t, "plain and gzip", pp, par)
		}
	}
}

// TestGzipParallelRealTraces: real gzipped traces (object and bare-array
// forms, metadata after traceEvents, memory records) read in parallel cut
// small equal the sequential reading.
func TestGzipParallelRealTraces(t *testing.T) {
	shared := testenv.Shared(t)
	for _, name := range []string{
		"kineto__2021-01-13__tb_plugin__samples__resnet50_num_workers_0__worker0.pt.trace.json.gz",
		"HTA__nccl_parser_config__nccl_data.json.gz",
		"TraceLens__mi300__gaunernst_bert-small-uncased__1016001.json.gz",
	} {
		path := filepath.Join(shared, "traces", name)
		for _, o := range []Options{{}, {NoExtras: true, NoMemory: true}} {
			z := spoolSizes{100_003, 300_000, 64 << 10, 1 << 16}
			seq, serr, par, perr := readGzBoth(t, path, o, z)
			if serr != nil {
				t.Fatal(serr)
			}
			sameReading(t, name, seq, serr, par, perr)
		}
	}
}
