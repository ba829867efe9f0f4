// Package decimal appends integers in decimal, as strconv.AppendInt and
// AppendUint do, for the trace writers. A JSON line holds five to ten
// numbers, and appending them was about a sixth of the time of writing
// one: strconv writes the digits into a buffer of its own and copies
// them, a call to memmove per number. These write the digits where they
// go, about a fifth faster (BenchmarkAppendInt against BenchmarkStrconv).
package decimal

import (
	"encoding/binary"
	"math/bits"
)

// pairs holds 00 to 99, to write two digits at a time.
const pairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

// AppendInt appends i in decimal to b, as strconv.AppendInt(b, i, 10).
// It is small enough to be inlined, so that a number costs one call, not
// two: the sign is appendUint's to write.
func AppendInt(b []byte, i int64) []byte {
	u := uint64(i)
	if i < 0 {
		u = -u
	}
	return appendUint(b, u, i < 0)
}

// AppendSign appends a minus sign to b if i is negative and returns i's
// magnitude, in uint64 so that the most negative int64 has one too.
func AppendSign(b []byte, i int64) ([]byte, uint64) {
	if i < 0 {
		return append(b, '-'), -uint64(i)
	}
	return b, uint64(i)
}

// AppendUint appends u in decimal to b, as strconv.AppendUint(b, u, 10).
// A single digit, the commonest number of a trace line (a P, an M, a
// count), is appended where the call is: the test is small enough for the
// compiler to inline.
func AppendUint(b []byte, u uint64) []byte {
	if u < 10 {
		return append(b, byte('0'+u))
	}
	return appendUint(b, u, false)
}

// appendUint appends u, after a minus sign if neg. Up to eight digits are made at
// once in a word (Word) and stored with one write of eight bytes,
// of which as many as u has are kept: no loop and no test of the number
// of digits but the one that counts them. A longer number is its top
// digits, then eight. This is where a JSON line spent a fifth of its
// instructions when it wrote two digits a step.
func appendUint(b []byte, u uint64, neg bool) []byte {
	if neg {
		b = append(b, '-')
	}
	if u < 10 {
		return append(b, byte('0'+u))
	}
	if u < 100 {
		return append(b, pairs[2*u], pairs[2*u+1])
	}
	if u >= 1e8 {
		return appendEight(AppendUint(b, u/1e8), eightDigits(u%1e8), 8)
	}
	w, n := Word(u)
	var a [8]byte
	binary.LittleEndian.PutUint64(a[:], w)
	return append(b, a[:n]...)
}

// appendEight appends the last n of the eight digits of x (eightDigits).
// The word is stored whole into a local array and n of its bytes are
// appended: b is a caller's slice, and bytes past its length may belong
// to a slice the caller holds, so nothing is written there.
func appendEight(b []byte, x uint64, n int) []byte {
	var w [8]byte
	binary.LittleEndian.PutUint64(w[:], x>>(8*(8-n)))
	return append(b, w[:n]...)
}

// Word returns u, below 10^8, as its n decimal digits in the low n bytes
// of w, the first digit in the lowest byte, so that a caller can put
// bytes of its own around them (a letter before: w<<8 | 'G') and store
// them at once.
//
// Below 10^7, the commonest numbers of a trace (goroutine ids, event
// numbers), it reads the digits from tables rather than making them
// (eightDigits): the number split once into its top three digits, which
// a table holds, and its last four, two pairs from another. The chain of
// multiplications eightDigits waits on is three splits long, and a JSON
// line's five or six numbers spent a sixth of its time waiting on it.
func Word(u uint64) (w uint64, n int) {
	if u < 1000 {
		if u == 0 {
			return '0', 1
		}
		x := threeDigits[u]
		return uint64(x & digitsMask), int(x >> 24)
	}
	if u < 1e7 {
		return Word7(uint32(u))
	}
	n = digits(u)
	return eightDigits(u) >> (8 * (8 - n)), n
}

// Word3 is Word of u from 1 to 999 (0 has no digits here), small enough
// to be inlined: the whole part of a duration in µs or ms, read from a
// table with no call.
func Word3(u uint32) (w uint64, n int) {
	x := threeDigits[u]
	return uint64(x & digitsMask), int(x >> 24)
}

// Word7 is Word of v from 1000 to 10^7-1, the ids and event numbers of a
// large run (below 1000 it is wrong: a leading zero). It is apart from
// Word, and small enough to be inlined, so that a caller that knows its
// number is in that range writes it with no call. Below 10^4, its top
// part is threeDigits[0]: no digits.
func Word7(v uint32) (w uint64, n int) {
	hi := v / 1e4
	lo := v - hi*1e4
	q := lo * 5243 >> 19 // lo/100 for lo < 10^4
	four := uint64(pairWords[q]) | uint64(pairWords[lo-q*100])<<16
	x := threeDigits[hi]
	hn := int(x >> 24)
	return uint64(x&digitsMask) | four<<(8*hn), hn + 4
}

// eightFromTables is eightDigits(v), v below 10^8, read from pairWords:
// four pairs, after two splits that do not wait on each other.
func eightFromTables(v uint32) uint64 {
	hi := v / 1e4
	lo := v - hi*1e4
	qh := hi * 5243 >> 19
	ql := lo * 5243 >> 19
	return uint64(pairWords[qh]) | uint64(pairWords[hi-qh*100])<<16 |
		uint64(pairWords[ql])<<32 | uint64(pairWords[lo-ql*100])<<48
}

// threeDigits holds 1 to 999 as their digits, the first in the lowest
// byte, and their count in the top byte (digitsMask keeps the digits);
// 0 is held as no digits at all, the top of a number below 10^4 (Word7),
// so that Word7 has no case for it. pairWords holds 00 to 99, two digits
// in each.
var (
	threeDigits [1000]uint32
	pairWords   [100]uint16
)

const digitsMask = 1<<24 - 1

func init() {
	for i := 1; i < len(threeDigits); i++ {
		// Written out, not by AppendUint, which reads this table.
		var w uint32
		n := 0
		for d := i; d > 0; n, d = n+1, d/10 {
			w = w<<8 | uint32('0'+d%10)
		}
		threeDigits[i] = w | uint32(n)<<24
	}
	for i := range pairWords {
		pairWords[i] = uint16(pairs[2*i]) | uint16(pairs[2*i+1])<<8
	}
}

// AppendWord appends the low n bytes of w, 1 <= n <= 8, in little-endian
// order, such as a Word and a letter before it. b is a caller's slice,
// and bytes past its length may belong to a slice the caller holds, so
// nothing is written there: the bytes are stored as two words of four
// (or of two) that overlap where n is less than their sum, both within
// the n bytes. Appended as a slice of a local array, they were a call to
// memmove for each name in a sentence.
func AppendWord(b []byte, w uint64, n int) []byte {
	l := len(b)
	if n < 2 || n > 8 || cap(b)-l < n {
		var a [8]byte
		binary.LittleEndian.PutUint64(a[:], w)
		return append(b, a[:min(max(n, 0), 8)]...)
	}
	b = b[:l+n]
	if n >= 4 {
		binary.LittleEndian.PutUint32(b[l:], uint32(w))
		binary.LittleEndian.PutUint32(b[l+n-4:], uint32(w>>(8*(n-4))))
		return b
	}
	binary.LittleEndian.PutUint16(b[l:], uint16(w))
	binary.LittleEndian.PutUint16(b[l+n-2:], uint16(w>>(8*(n-2))))
	return b
}

// PutWord is AppendWord into a buffer whose spare capacity belongs to
// the caller alone, as AppendOwned's: the whole word is stored past b's
// length, with one store where AppendWord makes two and tests n, and as
// many of its bytes kept as n says. It reports false, and appends
// nothing, when b has not the room for a word; the caller then calls
// AppendWord. The two are apart so that this one is small enough to be
// inlined: a sentence names a goroutine or two, and each was two calls.
func PutWord(b []byte, w uint64, n int) ([]byte, bool) {
	l := len(b)
	if cap(b)-l < 8 || uint(n) > 8 {
		return b, false
	}
	binary.LittleEndian.PutUint64(b[l:l+8], w)
	return b[:l+n], true
}

// AppendOwned appends u as AppendUint does, into a buffer whose spare
// capacity belongs to the caller alone: up to eight digits are stored as
// a whole word past b's length, of which as many are kept as u has. A
// trace writer's own output buffer is such a buffer; a caller's slice in
// general is not (AppendUint writes nothing past its digits).
// Numbers of nine to sixteen digits (a time in ns past 0.1s) are two
// words, the top digits then eight.
func AppendOwned(b []byte, u uint64) []byte {
	l := len(b)
	if u-1000 < 1e7-1000 && cap(b)-l >= 8 {
		// A goroutine's id or an event's number, the commonest: Word7
		// inlined, and no call but this one. The other cases are a
		// function apart, so that this one needs no frame of its own
		// to keep its arguments across them.
		w, n := Word7(uint32(u))
		binary.LittleEndian.PutUint64(b[l:l+8], w)
		return b[:l+n]
	}
	return appendOwnedSlowly(b, u)
}

// appendOwnedSlowly is AppendOwned of a number below 1000 or of 10^7 and
// more, or into a buffer without the room for a word.
func appendOwnedSlowly(b []byte, u uint64) []byte {
	l := len(b)
	if u >= 1e16 || cap(b)-l < 16 {
		return AppendUint(b, u)
	}
	if u >= 1e8 {
		top := u / 1e8
		w, n := Word(top)
		binary.LittleEndian.PutUint64(b[l:l+8], w)
		binary.LittleEndian.PutUint64(b[l+n:l+n+8], eightFromTables(uint32(u-top*1e8)))
		return b[:l+n+8]
	}
	w, n := Word(u)
	binary.LittleEndian.PutUint64(b[l:l+8], w)
	return b[:l+n]
}

// eightDigits returns u, below 10^8, as eight ASCII digits with leading
// zeros, in the order they are written when the word is stored little-
// endian: the first digit in the lowest byte. Each step divides every
// lane of the word at once by multiplying by a reciprocal and shifting,
// exact for the lanes' ranges (TestIsStrconv tries every digit count and
// its edges): two lanes of four digits, four of two, eight of one.
func eightDigits(u uint64) uint64 {
	hi := u / 1e4
	x := hi | (u-hi*1e4)<<32 // two 32-bit lanes below 10^4
	// v/100 for v < 10^4 is v*10486>>20; the products stay in their
	// lanes, and the mask keeps each lane's quotient.
	q := (x * 10486 >> 20) & 0x0000007f_0000007f
	x = q | (x-q*100)<<16 // four 16-bit lanes below 100
	// v/10 for v < 100 is v*103>>10.
	q = (x * 103 >> 10) & 0x000f000f_000f000f
	x = q | (x-q*10)<<8 // eight bytes below 10
	return x + '0'*ones
}

// ones is 0x01 in each byte of a word.
const ones = 0x01010101_01010101

// pow10 holds 10^0 to 10^19.
var pow10 = [...]uint64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// digits is how many decimal digits u has: log10(2) is about 1233/4096,
// so the bit length gives the count or one more, which a comparison
// settles, with no division.
func digits(u uint64) int {
	n := bits.Len64(u)*1233>>12 + 1
	if u < pow10[n-1] {
		n--
	}
	return n
}
