package gmp

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/core/sim"
)

// appendf writes what fmt.Sprintf writes, for every type and verb the
// describer uses.
func TestAppendfIsFmt(t *testing.T) {
	for _, c := range []struct {
		format string
		args   []any
	}{
		{"%v and %v on %v with %v", []any{GID(5), NoG, PID(1), MID(3)}},
		{"%v %v %v", []any{NoP, NoM, GID(12345)}},
		{"%d %d %d %d Gs; %s", []any{3, int32(-4), GID(7), PID(2), "text"}},
		{"%d %d %d", []any{MID(4), int64(-1 << 40), 1500 * time.Microsecond}},
		{"%v late, %v at %v", []any{1500 * time.Microsecond, time.Duration(0), sim.Time(20050)}},
		{"100%% of %v", []any{Kind(KindSteal)}},
		{"%v (%s)", []any{Reason(ReasonSleep), Reason(ReasonChanRecv)}},
		{"%d", []any{uint64(1 << 40)}},
		{"", nil},
		{"no verbs", nil},
	} {
		if got, want := string(appendf([]byte("x"), c.format, c.args...)), "x"+fmt.Sprintf(c.format, c.args...); got != want {
			t.Errorf("appendf(%q) = %q, fmt gives %q", c.format, got, want)
		}
	}
}

// What appendf does not know it marks, as fmt marks a bad verb, rather
// than handing it to fmt (which would make its arguments escape).
func TestAppendfMarksWhatItDoesNotKnow(t *testing.T) {
	for _, c := range []struct {
		format string
		args   []any
	}{
		{"%q", []any{"quoted"}},
		{"%5d", []any{42}},
		{"%v", []any{3.5}},
		{"extra %v", []any{1, 2}},
		{"missing %v %v", []any{1}},
		{"trailing %", nil},
	} {
		if got := string(appendf(nil, c.format, c.args...)); !strings.Contains(got, "%!") {
			t.Errorf("appendf(%q) = %q, unmarked", c.format, got)
		}
	}
}

// appendDuration writes what time.Duration.String does, in every unit and
// at the extremes.
func TestAppendDurationIsString(t *testing.T) {
	ds := []time.Duration{0, 1, 999, 1000, 1001, 1500, 999_999, time.Millisecond, 1_005_000, 10_050_000,
		time.Second, time.Second + 1, 59 * time.Second, time.Minute, time.Hour, time.Hour + 2*time.Second + 500*time.Millisecond,
		100 * time.Hour, math.MaxInt64, math.MinInt64}
	// And a spread of values of every magnitude, from a fixed generator.
	r := sim.NewRand(1)
	for range 20000 {
		ds = append(ds, time.Duration(r.Uint64()>>(r.Uint64()%64)))
	}
	for _, d := range ds {
		for _, d := range []time.Duration{d, -d} {
			if got, want := string(appendDuration([]byte("x"), d)), "x"+d.String(); got != want {
				t.Fatalf("appendDuration(%d) = %q, String gives %q", int64(d), got, want)
			}
		}
	}
}

// Every duration below a millisecond, and every whole number of
// microseconds below a second (appendThousandths' tables), is written as
// String writes it, with room after it and without, and nothing is
// written past the slice's capacity (within it is scratch, as
// AppendDescribe says).
func TestAppendDurationThousandths(t *testing.T) {
	check := func(d time.Duration) {
		for _, room := range []int{0, 7, 16} {
			under := []byte(strings.Repeat("#", 1+room+16))
			got := appendDuration(under[:1:1+room], d)
			if want := "#" + d.String(); string(got) != want {
				t.Fatalf("appendDuration(%d) with room %d = %q, want %q", int64(d), room, got, want)
			}
			if past := string(under[1+room:]); past != strings.Repeat("#", 16) {
				t.Fatalf("appendDuration(%d) with room %d wrote past the capacity: %q", int64(d), room, past)
			}
		}
	}
	for d := time.Duration(0); d < time.Millisecond; d++ {
		check(d)
	}
	for d := time.Millisecond; d < time.Second; d += time.Microsecond {
		check(d)
	}
}

// AppendG, AppendP and AppendM append what String returns.
func TestAppendIDsIsString(t *testing.T) {
	for _, id := range []int32{-1, 0, 1, 9, 10, 99, 100, 255, 256, 123456, 999999, 1e6, 1e7 - 1, 1e7, math.MaxInt32, math.MinInt32} {
		if got, want := string(AppendG(nil, GID(id))), GID(id).String(); got != want {
			t.Errorf("AppendG(%d) = %q, want %q", id, got, want)
		}
		if got, want := string(AppendP(nil, PID(id))), PID(id).String(); got != want {
			t.Errorf("AppendP(%d) = %q, want %q", id, got, want)
		}
		if got, want := string(AppendM(nil, MID(id))), MID(id).String(); got != want {
			t.Errorf("AppendM(%d) = %q, want %q", id, got, want)
		}
	}
}

// AppendP and AppendM copy the names of small IDs from a table, and AppendG
// makes a G's letter and digits one word: with room and without, at the
// table's edge and past it, they append what String returns, change
// nothing before it, and write nothing past b's capacity. (Past the name,
// within the capacity, is scratch: AppendDescribe.)
func TestAppendSmallIDsIsString(t *testing.T) {
	for id := int32(-2); id < 1100; id++ {
		for _, room := range []int{0, 3, 4, 7, 8, 64} {
			for _, f := range []struct {
				name   string
				append func([]byte) []byte
				want   string
			}{
				{"AppendP", func(b []byte) []byte { return AppendP(b, PID(id)) }, PID(id).String()},
				{"AppendM", func(b []byte) []byte { return AppendM(b, MID(id)) }, MID(id).String()},
				{"AppendG", func(b []byte) []byte { return AppendG(b, GID(id)) }, GID(id).String()},
				{"AppendG", func(b []byte) []byte { return AppendG(b, GID(id)*9091) }, (GID(id) * 9091).String()},
			} {
				// The room is a slice of a larger array, whose bytes
				// past the capacity must stay.
				under := []byte(strings.Repeat("#", 1+room+16))
				got := f.append(under[: 1 : 1+room])
				if string(got) != "#"+f.want {
					t.Fatalf("%s(%d) with room %d = %q, want %q", f.name, id, room, got, "#"+f.want)
				}
				if past := string(under[1+room:]); past != strings.Repeat("#", 16) {
					t.Fatalf("%s(%d) with room %d wrote past the capacity: %q", f.name, id, room, past)
				}
			}
		}
	}
}
