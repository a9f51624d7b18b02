package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/gen"
)

// TestGapsQueue: the planted full queue (gen's fullqueue scenario) gives
// streams[].queue.full_ns > 0 and the text line; --max-queue moves the
// limit; a limit below 1 is a usage error; the plain sample has no line.
func TestGapsQueue(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, cfg gen.Config) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := gen.Write(f, cfg); err != nil {
			t.Fatal(err)
		}
		return p
	}
	full := write("full.json", gen.Config{Steps: 3, Scenario: "fullqueue"})
	plain := write("plain.json", gen.Config{Steps: 3})

	type queue struct {
		MaxLen int   `json:"max_length_ops"`
		Limit  int   `json:"limit_ops"`
		FullNs int64 `json:"full_ns"`
	}
	queues := func(args ...string) []*queue {
		out, stderr, code := run(t, append([]string{"gaps", "--format", "json"}, args...)...)
		if code != ExitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var doc struct {
			Streams []struct {
				Queue *queue `json:"queue"`
			} `json:"streams"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		var qs []*queue
		for _, s := range doc.Streams {
			qs = append(qs, s.Queue)
		}
		return qs
	}
	qs := queues(full)
	if len(qs) != 1 || qs[0] == nil || qs[0].FullNs <= 0 || qs[0].MaxLen < 1024 || qs[0].Limit != 1024 {
		t.Fatalf("planted full queue: %+v", qs)
	}
	out, _, _ := run(t, "gaps", "--width", "0", full)
	if !strings.Contains(out, "launch queue of stream 7: up to ") || !strings.Contains(out, "full (1024 ops or more: a launch call blocks) for ") {
		t.Errorf("no full-queue line:\n%s", out)
	}
	// a higher limit than the queue ever held: never full, still shown (at least half)
	qs = queues("--max-queue", "5000", full)
	if qs[0].FullNs != 0 || qs[0].Limit != 5000 {
		t.Errorf("--max-queue 5000: %+v", qs[0])
	}
	out, _, _ = run(t, "gaps", "--width", "0", "--max-queue", "5000", full)
	if !strings.Contains(out, "never full (5000 ops)") {
		t.Errorf("--max-queue 5000: no never-full line:\n%s", out)
	}
	if _, _, code := run(t, "gaps", "--max-queue", "0", full); code != ExitUsage {
		t.Errorf("--max-queue 0: exit %d, want %d", code, ExitUsage)
	}
	out, _, _ = run(t, "gaps", "--width", "0", plain)
	if strings.Contains(out, "launch queue") {
		t.Errorf("the sample's short queue has a line:\n%s", out)
	}
	if qs := queues(plain); len(qs) == 0 || qs[0] == nil || qs[0].FullNs != 0 {
		t.Errorf("sample: %+v", qs)
	}
}
