package sim

import (
	"fmt"
	"testing"
)

// wakeLike has the size of gmp's agenda payload, 16 bytes (a kind, an M,
// a G and a generation), which is what the benchmark moves through the heap.
type wakeLike [4]uint32

// BenchmarkAgenda measures one step's use of the agenda, a pop and a
// push, with as many wake-ups pending as a run on 8 and on 64 Ps keeps.
func BenchmarkAgenda(b *testing.B) {
	for _, pending := range []int{10, 70} {
		b.Run(fmt.Sprintf("pending=%d", pending), func(b *testing.B) {
			var a Agenda[wakeLike]
			r := NewRand(1)
			for range pending {
				a.Push(Time(r.Int63n(100_000)), wakeLike{})
			}
			for range b.N {
				at, _, _ := a.Pop()
				a.Push(at+Time(r.Int63n(100_000)), wakeLike{})
			}
		})
	}
}
