package atomicfile

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

func syncAll(files []*File) error {
	synced := map[uint64]bool{} // file systems, by device
	for _, f := range files {
		var st syscall.Stat_t
		if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
			return &os.PathError{Op: "fstat", Path: f.path, Err: err}
		}
		if synced[uint64(st.Dev)] {
			continue
		}
		if err := unix.Syncfs(int(f.Fd())); err != nil {
			return &os.PathError{Op: "syncfs", Path: f.path, Err: err}
		}
		synced[uint64(st.Dev)] = true
	}
	return nil
}
