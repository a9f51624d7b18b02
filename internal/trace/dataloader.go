package trace

import "strings"

// IsDataLoader reports whether an event's name is a DataLoader frame:
// torch's enumerate(DataLoader)#... annotations and the Python frames of
// a DataLoader iterator's __next__. gaps (input-bound idle) and
// critical-path (the data_loading share) use this one definition.
func IsDataLoader(name string) bool {
	return strings.Contains(name, "DataLoader") || (strings.Contains(name, "dataloader.py") && strings.Contains(name, "__next__"))
}
