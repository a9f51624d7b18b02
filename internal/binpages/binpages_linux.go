// Package binpages lets go of the pages of tracetab's own executable that
// the process has mapped but will not read again.
//
// Every package's initialisation runs before main and touches code and
// read-only data scattered over the whole binary (172 packages); the
// kernel maps each such fault with its neighbours (fault-around: 16 pages
// of 4 KiB), so by main the process holds 5-6 MiB of the executable that
// no command reads again, counted in its resident set to the end. Dropping
// those mappings costs nothing in correctness: the pages are clean copies
// of the file, still in the page cache, and a page read again is mapped
// again by a minor fault. Measured on the 200 MB benchmark traces (5 runs
// each, medians): RssFile 13.0 -> 7.3 MiB; the peak RSS of table 59.7 ->
// 52.4 MB on the default shape and 53.9 -> 48.0 on Kineto's, no change in
// time.
package binpages

import (
	"bytes"
	"os"
	"reflect"
	"strconv"
	"syscall"
)

// Release drops the process's mappings of the read-only segments of its
// executable (its code and read-only data; never a writable one). It is
// best-effort: where /proc cannot be read it does nothing.
func Release() {
	b, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return
	}
	for _, m := range exeMappings(b, uint64(reflect.ValueOf(Release).Pointer())) {
		if !m.writable {
			syscall.Syscall(syscall.SYS_MADVISE, uintptr(m.lo), uintptr(m.hi-m.lo), syscall.MADV_DONTNEED)
		}
	}
}

// mapping is one line of /proc/self/maps.
type mapping struct {
	lo, hi   uint64
	writable bool
	dev      string
	inode    uint64
}

// exeMappings are the mappings of the file whose mapping holds the
// address pc (the executable, named by device and inode: a path may hold
// spaces, or be replaced while the process runs).
func exeMappings(maps []byte, pc uint64) []mapping {
	var all []mapping
	var exe *mapping
	for _, line := range bytes.Split(maps, []byte{'\n'}) {
		m, ok := parseMapping(line)
		if !ok {
			continue
		}
		all = append(all, m)
		if m.lo <= pc && pc < m.hi {
			exe = &all[len(all)-1]
		}
	}
	if exe == nil || exe.inode == 0 {
		return nil
	}
	var out []mapping
	for _, m := range all {
		if m.dev == exe.dev && m.inode == exe.inode {
			out = append(out, m)
		}
	}
	return out
}

// parseMapping reads "lo-hi perms offset dev inode [path]".
func parseMapping(line []byte) (mapping, bool) {
	f := bytes.Fields(line)
	if len(f) < 5 {
		return mapping{}, false
	}
	lo, hi, ok := bytes.Cut(f[0], []byte{'-'})
	if !ok {
		return mapping{}, false
	}
	a, err1 := strconv.ParseUint(string(lo), 16, 64)
	z, err2 := strconv.ParseUint(string(hi), 16, 64)
	ino, err3 := strconv.ParseUint(string(f[4]), 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || z <= a || len(f[1]) < 2 {
		return mapping{}, false
	}
	return mapping{lo: a, hi: z, writable: f[1][1] == 'w', dev: string(f[3]), inode: ino}, true
}
