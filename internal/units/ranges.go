package units

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Ranges writes sorted distinct numbers compactly: "2-5", "0, 3, 7-9"
// (nums is sorted and compacted in place).
func Ranges(nums []int64) string {
	slices.Sort(nums)
	nums = slices.Compact(nums)
	var parts []string
	for k := 0; k < len(nums); {
		j := k
		for j+1 < len(nums) && nums[j+1] == nums[j]+1 {
			j++
		}
		if j > k {
			parts = append(parts, fmt.Sprintf("%d-%d", nums[k], nums[j]))
		} else {
			parts = append(parts, strconv.FormatInt(nums[k], 10))
		}
		k = j + 1
	}
	return strings.Join(parts, ", ")
}
