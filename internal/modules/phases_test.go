package modules

import (
	"fmt"
	"testing"
)

// A node's totals include its subtree's; its host self time is its host
// total less its children's.
func TestRollUp(t *testing.T) {
	nodes := []Node{
		{Name: "A", Parent: -1, HostTotal: 100, DeviceSelf: 5, DeviceOps: 1},
		{Name: "B", Parent: 0, HostTotal: 30, DeviceSelf: 10, DeviceOps: 2},
		{Name: "C", Parent: 1, HostTotal: 10, DeviceSelf: 7, DeviceOps: 1},
		{Name: "D", Parent: 0, HostTotal: 20},
	}
	rollUp(nodes)
	want := map[string][3]int64{ // DeviceTotal, HostSelf, DeviceOps
		"A": {22, 50, 4},
		"B": {17, 20, 3},
		"C": {7, 10, 1},
		"D": {0, 20, 0},
	}
	for _, n := range nodes {
		if got := [3]int64{n.DeviceTotal, n.HostSelf, n.DeviceOps}; got != want[n.Name] {
			t.Errorf("%s: device total, host self, ops %v, want %v", n.Name, got, want[n.Name])
		}
	}
}

// Tree order: each node followed by its subtree; siblings by device total,
// host total, then name; indices renumbered.
func TestTreeOrder(t *testing.T) {
	nodes := []Node{
		{Name: "R1", Parent: -1, DeviceTotal: 5, HostTotal: 50, Children: []int{2, 3}},
		{Name: "R2", Parent: -1, DeviceTotal: 9, HostTotal: 10},
		{Name: "b", Parent: 0, DeviceTotal: 1, HostTotal: 5},
		{Name: "a", Parent: 0, DeviceTotal: 1, HostTotal: 5},
	}
	got, _ := treeOrder(nodes)
	var s []string
	for _, n := range got {
		s = append(s, fmt.Sprintf("%s^%d%v", n.Name, n.Parent, n.Children))
	}
	if w := "[R2^-1[] R1^-1[2 3] a^1[] b^1[]]"; fmt.Sprint(s) != w {
		t.Errorf("order %v, want %s", s, w)
	}
}
