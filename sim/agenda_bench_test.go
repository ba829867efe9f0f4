package sim

import (
	"fmt"
	"testing"
)

// wakeLike is the size and shape of gmp's agenda payload.
type wakeLike struct {
	kind uint8
	m, g int32
	gen  uint32
}

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
