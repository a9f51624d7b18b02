// Package atomicfile writes a file so that no reader ever sees it half
// written: the bytes go to a temporary file in the same directory, which is
// synced and renamed over the final name only once complete. A process
// killed meanwhile leaves at most a temporary file, whose name starts with
// a dot and ends in ".tmp" (query engines skip hidden files).
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// File is a file being written; Commit makes it appear under its name.
type File struct {
	*os.File
	path string
	done bool
}

// TmpSuffix ends the name of every temporary file.
const TmpSuffix = ".tmp"

// Create starts writing the file path (its directory must exist).
func Create(path string) (*File, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*"+TmpSuffix)
	if err != nil {
		return nil, err
	}
	// CreateTemp makes the file private (0600); the result is an ordinary
	// file that others may read, as os.Create would make it (umask aside)
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return &File{File: f, path: path}, nil
}

// Path is the name the file gets on Commit.
func (f *File) Path() string { return f.path }

// Commit syncs, closes and renames the file to its name.
func (f *File) Commit() error {
	return f.commit(true)
}

// CommitSynced closes and renames the file to its name, without a sync of
// its own: the caller made its bytes durable before (SyncAll).
func (f *File) CommitSynced() error {
	return f.commit(false)
}

func (f *File) commit(sync bool) error {
	if f.done {
		return fmt.Errorf("%s: committed twice", f.path)
	}
	f.done = true
	if sync {
		if err := f.Sync(); err != nil {
			f.File.Close()
			os.Remove(f.Name())
			return err
		}
	}
	if err := f.File.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), f.path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// Abort closes and removes the temporary file; after Commit it does
// nothing, so it can be deferred.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	os.Remove(f.Name())
}

// IsTemp reports whether the base name is that of a temporary file.
func IsTemp(base string) bool {
	return strings.HasPrefix(base, ".") && strings.HasSuffix(base, TmpSuffix)
}
