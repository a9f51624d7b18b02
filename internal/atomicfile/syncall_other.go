//go:build !linux

package atomicfile

func syncAll(files []*File) error {
	for _, f := range files {
		if err := f.Sync(); err != nil {
			return err
		}
	}
	return nil
}
