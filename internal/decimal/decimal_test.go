package decimal

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// AppendInt and AppendUint append what strconv appends, at every number
// of digits and its edges, and for a spread of values.
func TestIsStrconv(t *testing.T) {
	var us []uint64
	for p := uint64(1); p < math.MaxUint64/10; p *= 10 {
		us = append(us, p-1, p, p+1, 2*p-1)
	}
	us = append(us, math.MaxUint64, math.MaxInt64, 1<<63)
	x := uint64(0x9e3779b97f4a7c15)
	for range 100000 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		us = append(us, x>>(x%64))
	}
	for _, u := range us {
		if got, want := string(AppendUint([]byte("x"), u)), strconv.AppendUint([]byte("x"), u, 10); got != string(want) {
			t.Fatalf("AppendUint(%d) = %s, want %s", u, got, want)
		}
		// Into spare capacity, and at its very end, where it must grow.
		// Nothing past the digits is written: the caller may hold a
		// slice of those bytes.
		for _, room := range []int{0, 7, 8, 64} {
			under := make([]byte, 1+room)
			for i := range under {
				under[i] = '#'
			}
			b := under[:1]
			got := AppendUint(b, u)
			if want := strconv.AppendUint([]byte("#"), u, 10); string(got) != string(want) {
				t.Fatalf("AppendUint(%d) with room %d = %s, want %s", u, room, got, want)
			}
			if len(got) <= len(under) {
				for i := len(got); i < len(under); i++ {
					if under[i] != '#' {
						t.Fatalf("AppendUint(%d) with room %d wrote byte %d, past the digits", u, room, i)
					}
				}
			}
		}
		for _, i := range []int64{int64(u), -int64(u)} {
			if got, want := string(AppendInt(nil, i)), strconv.FormatInt(i, 10); got != want {
				t.Fatalf("AppendInt(%d) = %s, want %s", i, got, want)
			}
		}
	}
	// AppendOwned, into a buffer of its own, appends the same: with
	// room for its whole words and without (then it appends as
	// AppendUint does). Word gives the same digits.
	for _, u := range us {
		want := strconv.AppendUint([]byte("#"), u, 10)
		for _, room := range []int{0, 7, 8, 15, 16, 64} {
			b := append(make([]byte, 0, 1+room), '#')
			if got := AppendOwned(b, u); string(got) != string(want) {
				t.Fatalf("AppendOwned(%d) with room %d = %s, want %s", u, room, got, want)
			}
		}
		if u < 1e8 {
			w, n := Word(u)
			var a [8]byte
			for i := range n {
				a[i] = byte(w >> (8 * i))
			}
			if got := string(a[:n]); got != string(want[1:]) || w>>(8*n) != 0 && n < 8 {
				t.Fatalf("Word(%d) = %#x, %d: %q, want %s and nothing above", u, w, n, got, want[1:])
			}
		}
	}
	if got := string(AppendInt(nil, math.MinInt64)); got != strconv.FormatInt(math.MinInt64, 10) {
		t.Errorf("AppendInt(MinInt64) = %s", got)
	}
}

// The numbers of a trace line: a time in ns, G, P and M numbers, a cause.
var line = []int64{631800, 634, 0, 2, 244, 557000000, 199999, 61}

func BenchmarkAppendInt(b *testing.B) {
	buf := make([]byte, 0, 256)
	for b.Loop() {
		buf = buf[:0]
		for _, i := range line {
			buf = AppendInt(buf, i)
		}
	}
}

func BenchmarkStrconv(b *testing.B) {
	buf := make([]byte, 0, 256)
	for b.Loop() {
		buf = buf[:0]
		for _, i := range line {
			buf = strconv.AppendInt(buf, i, 10)
		}
	}
}

func BenchmarkAppendOwned(b *testing.B) {
	buf := make([]byte, 0, 256)
	for b.Loop() {
		buf = buf[:0]
		for _, i := range line {
			buf = AppendOwned(buf, uint64(i))
		}
	}
}

// Word gives every number below 10^7, where it reads tables, as strconv
// writes it, and eightFromTables every number below 10^8 as eightDigits.
func TestWordIsStrconv(t *testing.T) {
	for v := uint32(0); v < 1e8; v++ {
		if got, want := eightFromTables(v), eightDigits(uint64(v)); got != want {
			t.Fatalf("eightFromTables(%d) = %#x, want %#x", v, got, want)
		}
	}
	var a [8]byte
	for u := uint64(0); u < 1e7+10; u++ {
		w, n := Word(u)
		for i := range a {
			a[i] = byte(w >> (8 * i))
		}
		if want := strconv.FormatUint(u, 10); string(a[:n]) != want || n < 8 && w>>(8*n) != 0 {
			t.Fatalf("Word(%d) = %#x, %d; want %s and nothing above", u, w, n, want)
		}
		// Word3 and Word7 are Word within their ranges.
		if u >= 1 && u <= 999 {
			if w3, n3 := Word3(uint32(u)); w3 != w || n3 != n {
				t.Fatalf("Word3(%d) = %#x, %d; Word gives %#x, %d", u, w3, n3, w, n)
			}
		}
		if u >= 1000 && u < 1e7 {
			if w7, n7 := Word7(uint32(u)); w7 != w || n7 != n {
				t.Fatalf("Word7(%d) = %#x, %d; Word gives %#x, %d", u, w7, n7, w, n)
			}
		}
	}
}

// A G's name, an event's number: numbers that Word reads from tables.
var ids = []uint64{134193, 1000002, 7, 992381, 135204, 61, 3219, 999994}

// BenchmarkWord makes each number's digits wait on the one before, as
// the appends of a line do through its length, so that it times the
// latency of a conversion.
func BenchmarkWord(b *testing.B) {
	var sink uint64
	for b.Loop() {
		var dep uint64
		for _, u := range ids {
			w, n := Word(u + dep)
			dep = (w >> 63) + uint64(n>>4)
			sink += w
		}
	}
	_ = sink
}

// AppendWord appends the low n bytes of a word, with room and without,
// and writes nothing past them: the caller may hold those bytes.
func TestAppendWord(t *testing.T) {
	const w = 0x3837363534333231 // "12345678"
	for n := 0; n <= 8; n++ {
		for _, room := range []int{0, 1, 3, 7, 8, 16} {
			under := []byte(strings.Repeat("#", 1+room))
			got := AppendWord(under[:1], w, n)
			if want := "#" + "12345678"[:n]; string(got) != want {
				t.Fatalf("AppendWord(%d) with room %d = %q, want %q", n, room, got, want)
			}
			if len(got) <= len(under) && strings.Trim(string(under[len(got):]), "#") != "" {
				t.Fatalf("AppendWord(%d) with room %d wrote past its bytes: %q", n, room, under)
			}
		}
	}
}

// PutWord stores a whole word past b's length when b has room for one,
// keeps n of its bytes, and writes nothing past b's capacity; without
// the room it appends nothing and says so.
func TestPutWord(t *testing.T) {
	const w = 0x3837363534333231 // "12345678"
	for n := 1; n <= 8; n++ {
		for room := 0; room <= 9; room++ {
			under := []byte(strings.Repeat("#", 2+room+8))
			got, ok := PutWord(under[:2:2+room], w, n)
			if ok != (room >= 8) {
				t.Fatalf("n %d, room %d: ok %v", n, room, ok)
			}
			want := "##"
			if ok {
				want += "12345678"[:n]
			}
			if string(got) != want {
				t.Fatalf("n %d, room %d: %q, want %q", n, room, got, want)
			}
			if past := string(under[2+room:]); past != "########" {
				t.Fatalf("n %d, room %d: wrote past the capacity: %q", n, room, past)
			}
		}
	}
}
