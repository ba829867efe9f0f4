package gmp

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"time"

	"github.com/schedlab/schedlab/core/sim"
	"github.com/schedlab/schedlab/internal/decimal"
)

// appendf appends a sentence to b as fmt.Appendf would, for the few verbs
// and types the describer uses: %v, %d and %s of strings, integers, IDs,
// durations, times, reasons, kinds and the phrases below. A trace writes
// hundreds of thousands of sentences, so appendf makes no allocation:
// it never hands its arguments to fmt or to an interface method, which
// keeps them, and the values boxed into them, on the caller's stack.
// A verb or type it does not know is marked as fmt marks a bad verb,
// "%!q(…)", and the tests describe every rule to see that none is.
func appendf(b []byte, format string, args ...any) []byte {
	arg := 0
	for {
		i := strings.IndexByte(format, '%')
		if i < 0 {
			b = append(b, format...)
			break
		}
		b = append(b, format[:i]...)
		if i+1 >= len(format) {
			b = append(b, "%!(NOVERB)"...)
			break
		}
		verb := format[i+1]
		format = format[i+2:]
		switch {
		case verb == '%':
			b = append(b, '%')
		case arg >= len(args):
			b = append(b, '%', '!', verb)
			b = append(b, "(MISSING)"...)
		default:
			b = appendArg(b, args[arg], verb)
			arg++
		}
	}
	if arg < len(args) {
		b = append(b, "%!(EXTRA)"...)
	}
	return b
}

// appendArg appends one argument as fmt's %v, %d or %s would.
func appendArg(b []byte, a any, verb byte) []byte {
	if verb != 'v' && verb != 'd' && verb != 's' {
		return append(append(b, '%', '!', verb), "(unsupported verb)"...)
	}
	switch x := a.(type) {
	case string:
		return append(b, x...)
	case int:
		return decimal.AppendInt(b, int64(x))
	case int32:
		return decimal.AppendInt(b, int64(x))
	case int64:
		return decimal.AppendInt(b, x)
	case uint64:
		return decimal.AppendUint(b, x)
	case GID:
		if verb == 'd' {
			return decimal.AppendInt(b, int64(x))
		}
		return AppendG(b, x)
	case PID:
		if verb == 'd' {
			return decimal.AppendInt(b, int64(x))
		}
		return AppendP(b, x)
	case MID:
		if verb == 'd' {
			return decimal.AppendInt(b, int64(x))
		}
		return AppendM(b, x)
	case time.Duration:
		if verb == 'd' {
			return decimal.AppendInt(b, int64(x))
		}
		return appendDuration(b, x)
	case sim.Time:
		if verb == 'd' {
			return decimal.AppendInt(b, int64(x))
		}
		return sim.AppendMillis(b, x.D())
	case Reason:
		if verb == 'd' {
			return decimal.AppendInt(b, int64(x))
		}
		return append(b, x.String()...)
	case Kind:
		if verb == 'd' {
			return decimal.AppendInt(b, int64(x))
		}
		return append(b, x.String()...)
	case intoPhrase:
		return x.appendTo(b)
	case kickedPhrase:
		return x.appendTo(b)
	case kickedNewPhrase:
		return x.appendTo(b)
	case pluralPhrase:
		return x.appendTo(b)
	case waitedPhrase:
		return x.appendTo(b)
	case sliceAgePhrase:
		return x.appendTo(b)
	case placePhrase:
		return x.d.appendPlace(b, x.l)
	case namePhrase:
		return x.appendTo(b)
	case capPhrase:
		return x.appendTo(b)
	case holderPhrase:
		return x.appendTo(b)
	}
	return append(append(b, '%', '!', verb), "(unsupported type)"...)
}

// AppendG, AppendP and AppendM append an ID as its String method writes
// it ("G5", "P0", "M2", "-" for none), without making the string. Like
// AppendDescribe, they use b's spare room as scratch: a name is stored as
// a whole word past b's length, of which as many bytes are kept as it
// has, so up to 8 bytes past the name, within b's capacity, may change.
func AppendG(b []byte, g GID) []byte {
	if l := len(b); g >= 1000 && g < 1e7 && cap(b)-l >= 8 {
		// The letter and four to seven digits in one word, stored at
		// once (decimal.Word7, inlined). The other cases are a
		// function apart, so that this one keeps no frame for them.
		w, n := decimal.Word7(uint32(g))
		binary.LittleEndian.PutUint64(b[l:l+8], w<<8|'G')
		return b[:l+n+1]
	}
	return appendGSlowly(b, g)
}

// appendGSlowly is AppendG of an id below 1000 or of 10^7 and more, of
// NoG, or into a slice without the room for a word.
func appendGSlowly(b []byte, g GID) []byte {
	if g == NoG {
		return append(b, '-')
	}
	if g >= 0 && g < 1e7 {
		// The letter and up to seven digits in one word, appended at
		// once: a sentence names a G or two, and the letter appended
		// apart from the digits was a second append and call each.
		w, n := decimal.Word(uint64(g))
		if b, ok := decimal.PutWord(b, w<<8|'G', n+1); ok {
			return b
		}
		return decimal.AppendWord(b, w<<8|'G', n+1)
	}
	return decimal.AppendInt(append(b, 'G'), int64(g))
}

// AppendP appends p as PID.String writes it. NoP, like NoM, is -1,
// which idNames.appendTo names "-".
func AppendP(b []byte, p PID) []byte { return pNames.appendTo(b, int32(p)) }

// AppendM appends m as MID.String writes it.
func AppendM(b []byte, m MID) []byte { return mNames.appendTo(b, int32(m)) }

// idNames holds the names of the IDs below 1000, "P0" to "P999", each in
// a word. A sentence names a P or two and the trace line names one more:
// copying a word is cheaper than writing the digits.
type idNames struct {
	letter byte
	// words holds each name, two to four bytes, in bits 0-31, the
	// first byte lowest and zeros past the last, and its length in bits
	// 32 and up.
	words [1000]uint64
}

var (
	pNames = newIDNames('P')
	mNames = newIDNames('M')
)

func newIDNames(letter byte) *idNames {
	n := &idNames{letter: letter}
	for i := range n.words {
		var name [4]byte
		k := copy(name[:], decimal.AppendInt([]byte{letter}, int64(i)))
		n.words[i] = uint64(binary.LittleEndian.Uint32(name[:])) | uint64(k)<<32
	}
	return n
}

// appendTo appends the name of id, "-" for -1 (NoP, NoM). Its four bytes
// are stored as one word past b's length, of which as many are kept as
// the name has: b's spare room is the caller's own, as a sentence's is
// (Describer.AppendDescribe). Two stores of two bytes within the name,
// which left that room alone, took 12 more instructions a line on the
// 64-P run (valgrind --tool=cachegrind).
func (n *idNames) appendTo(b []byte, id int32) []byte {
	l := len(b)
	if uint32(id) >= uint32(len(n.words)) || cap(b)-l < 4 {
		return n.appendSlowly(b, id)
	}
	x := n.words[id]
	binary.LittleEndian.PutUint32(b[l:l+4], uint32(x))
	return b[:l+int(x>>32)]
}

// appendSlowly is appendTo of an ID past the table, or into a slice
// without the room for a word.
//
//go:noinline
func (n *idNames) appendSlowly(b []byte, id int32) []byte {
	switch {
	case id == -1:
		return append(b, '-')
	case id < 0 || id >= int32(len(n.words)):
		return decimal.AppendInt(append(b, n.letter), int64(id))
	}
	x := n.words[id]
	var name [4]byte
	binary.LittleEndian.PutUint32(name[:], uint32(x))
	return append(b, name[:x>>32]...)
}

// appendDuration appends d as d.String() writes it ("0s", "472µs",
// "1.5ms", "1h0m2.5s"); time has no appending form, and a String per
// sentence was an allocation per event.
func appendDuration(b []byte, d time.Duration) []byte {
	b, u := decimal.AppendSign(b, int64(d))
	switch {
	case u == 0:
		return append(b, "0s"...)
	case u < uint64(time.Microsecond):
		return append(decimal.AppendUint(b, u), "ns"...)
	case u < uint64(time.Millisecond):
		return append(appendThousandths(b, u/1e3, u%1e3), "µs"...)
	case u < uint64(time.Second):
		if u%1e3 == 0 {
			// Whole microseconds, as sleeps and timer slack mostly are.
			return append(appendThousandths(b, u/1e6, u/1e3%1e3), "ms"...)
		}
		return append(appendDecimal(b, u/1e6, u%1e6, 6), "ms"...)
	}
	secs := u / uint64(time.Second)
	if h := secs / 3600; h > 0 {
		b = append(decimal.AppendUint(b, h), 'h')
	}
	if secs >= 60 {
		b = append(decimal.AppendUint(b, secs/60%60), 'm')
	}
	return append(appendDecimal(b, secs%60, u%1e9, 9), 's')
}

// appendThousandths is appendDecimal of a whole below 1000 and a
// fraction of three places, from tables: the whole's digits and the
// fraction's point and digits in one word. Most go-starts say how long
// the G was runnable and most timers how late they fired, in µs, and
// appendDecimal's divisions by ten were half of such a sentence's
// numbers.
func appendThousandths(b []byte, whole, frac uint64) []byte {
	if whole-1 >= 999 || frac >= 1000 { // whole 0, or 1000 and more
		return appendDecimal(b, whole, frac, 3)
	}
	if frac == 0 {
		// "1ms": often a single digit, which AppendUint appends
		// directly.
		return decimal.AppendUint(b, whole)
	}
	w, n := decimal.Word3(uint32(whole))
	f := fractions[frac]
	w, n = w|uint64(f)<<(8*n), n+4-bits.LeadingZeros32(f)/8
	if b, ok := decimal.PutWord(b, w, n); ok {
		return b
	}
	return decimal.AppendWord(b, w, n)
}

// fractions holds, for each fraction of three places, its point and
// digits without their trailing zeros, little-endian (".65" for 650),
// and zero for none.
var fractions = func() (t [1000]uint32) {
	for i := 1; i < 1000; i++ {
		s := strings.TrimRight(string(decimal.AppendInt(nil, int64(1000+i)))[1:], "0")
		w := [4]byte{'.'}
		copy(w[1:], s)
		t[i] = binary.LittleEndian.Uint32(w[:])
	}
	return t
}()

// appendDecimal appends whole, then frac as the fraction of places
// digits, with the fraction's trailing zeros, and a point with nothing
// after it, left out: 1, 500, 3 gives "1.5". The callers divide by
// constants, and so does this, by 10: a division by a number known only
// when it runs is a divide instruction, and the two per digit of the
// loop this replaced were a seventh of a JSON line's sentence (most
// go-starts say how long the G was runnable, in µs).
func appendDecimal(b []byte, whole, frac uint64, places int) []byte {
	b = decimal.AppendUint(b, whole)
	if frac == 0 {
		return b
	}
	for frac%10 == 0 {
		frac /= 10
		places--
	}
	var digits [9]byte
	for i := places - 1; i >= 0; i-- {
		digits[i] = byte('0' + frac%10)
		frac /= 10
	}
	return append(append(b, '.'), digits[:places]...)
}
