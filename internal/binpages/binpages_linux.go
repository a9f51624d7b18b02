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
// time. Reading smaps and the calls take about 1.5 ms with 64 MB of heap.
//
// Only pages that are the file's own may go: in a dynamically linked
// build (cgo, PIE) the loader writes the relocated read-only data before
// protecting it, and dropping such a page maps the file's unrelocated
// bytes back (a DuckDB test binary, which runs tracetab in-process,
// crashed on a null function pointer before Release looked at smaps'
// Anonymous count).
package binpages

import (
	"bytes"
	"os"
	"reflect"
	"strconv"
	"syscall"
)

// Release drops the process's mappings of the read-only segments of its
// executable (its code and read-only data) whose pages are all the file's
// own: a mapping holding a page the process wrote is skipped (a
// dynamically linked build's relocated read-only data, RELRO, or a
// debugger's breakpoint: dropping those would undo the write), as is every
// writable one. It is best-effort: where /proc cannot be read it does
// nothing.
func Release() {
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return
	}
	all := parseSmaps(b)
	if dev, inode, ok := fileAt(all, uint64(reflect.ValueOf(Release).Pointer())); ok {
		drop(all, dev, inode)
	}
}

// drop lets go of the clean mappings of the file (dev, inode).
func drop(all []mapping, dev string, inode uint64) {
	for _, m := range all {
		if m.dev == dev && m.inode == inode && m.clean() {
			syscall.Syscall(syscall.SYS_MADVISE, uintptr(m.lo), uintptr(m.hi-m.lo), syscall.MADV_DONTNEED)
		}
	}
}

// mapping is one mapping of /proc/self/smaps.
type mapping struct {
	lo, hi   uint64
	writable bool
	dev      string
	inode    uint64
	anon     int64 // the "Anonymous:" kB: pages written since mapped (-1: not given)
}

// clean: read-only and only the file's own pages.
func (m mapping) clean() bool { return !m.writable && m.anon == 0 }

// parseSmaps reads /proc/self/smaps (or maps: then anon is -1 and no
// mapping is clean).
func parseSmaps(smaps []byte) []mapping {
	var all []mapping
	for _, line := range bytes.Split(smaps, []byte{'\n'}) {
		if m, ok := parseMapping(line); ok {
			all = append(all, m)
			continue
		}
		if v, ok := bytes.CutPrefix(line, []byte("Anonymous:")); ok && len(all) > 0 {
			f := bytes.Fields(v)
			if len(f) > 0 {
				if n, err := strconv.ParseInt(string(f[0]), 10, 64); err == nil {
					all[len(all)-1].anon = n
				}
			}
		}
	}
	return all
}

// fileAt names the file mapped at address pc by device and inode (a path
// may hold spaces, or be replaced while the process runs); not ok for an
// address in no mapping or in an anonymous one.
func fileAt(all []mapping, pc uint64) (dev string, inode uint64, ok bool) {
	for _, m := range all {
		if m.lo <= pc && pc < m.hi && m.inode != 0 {
			return m.dev, m.inode, true
		}
	}
	return "", 0, false
}

// parseMapping reads a mapping's first line, "lo-hi perms offset dev
// inode [path]" (smaps' other lines are "Key: value").
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
	return mapping{lo: a, hi: z, writable: f[1][1] == 'w', dev: string(f[3]), inode: ino, anon: -1}, true
}
