package info

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetab/tracetab/internal/parse"
	"github.com/tracetab/tracetab/internal/testcache"
	"github.com/tracetab/tracetab/internal/trace"
)

// deviceNames reads deviceProperties (id -> name) from the raw JSON.
func deviceNames(t *testing.T, path string) map[int]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		if r, err = gzip.NewReader(f); err != nil {
			t.Fatal(err)
		}
	}
	var obj struct {
		DeviceProperties []struct {
			ID   int    `json:"id"`
			Name string `json:"name"`
		} `json:"deviceProperties"`
	}
	b, _ := io.ReadAll(r)
	_ = json.Unmarshal(b, &obj) // a bare array has none
	out := map[int]string{}
	for _, d := range obj.DeviceProperties {
		out[d.ID] = d.Name
	}
	return out
}

// The vendor read from the names of what ran on a device agrees with the
// device's own name wherever the trace gives one (deviceProperties), on
// every shared trace: it is never wrong, and it names most of them.
func TestVendorAgainstDeviceProperties(t *testing.T) {
	var named, read int
	for _, path := range sharedTraces(t) {
		props := deviceNames(t, path)
		if len(props) == 0 {
			continue
		}
		tr, _, err := testcache.Open(path, parse.Options{})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		l := tr.Links()
		devices := map[int]bool{}
		for _, k := range tr.Tracks {
			if k.Kind == trace.TrackDevice {
				devices[k.Device] = true
			}
		}
		for dev := range devices {
			name, ok := props[dev]
			if !ok {
				continue
			}
			var want string
			switch up := strings.ToUpper(name); {
			case strings.Contains(up, "AMD") || strings.Contains(up, "INSTINCT") || strings.Contains(up, "RADEON"):
				want = "AMD"
			case strings.Contains(up, "NVIDIA") || strings.Contains(up, "TESLA") || strings.Contains(up, "GEFORCE"):
				want = "NVIDIA"
			default:
				continue
			}
			named++
			got, from := deviceVendor(tr, l, dev)
			if got != "" {
				read++
			}
			if got != "" && got != want {
				t.Errorf("%s: device %d %q read as %s (from %v)", filepath.Base(path), dev, name, got, from)
			}
		}
	}
	if named < 10 || read*10 < named*8 {
		t.Errorf("%d named devices, %d of them read from their names: want at least 10 and 80%%", named, read)
	}
	t.Logf("%d devices named by deviceProperties, the vendor read from names for %d", named, read)
}
