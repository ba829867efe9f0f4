// Package decimal appends integers in decimal, as strconv.AppendInt and
// AppendUint do, for the trace writers. A JSON line holds five to ten
// numbers, and appending them was about a sixth of the time of writing
// one: strconv writes the digits into a buffer of its own and copies
// them, a call to memmove per number. These write the digits where they
// go, about a fifth faster (BenchmarkAppendInt against BenchmarkStrconv).
package decimal

import "math/bits"

// pairs holds 00 to 99, to write two digits at a time.
const pairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

// AppendInt appends i in decimal to b, as strconv.AppendInt(b, i, 10).
func AppendInt(b []byte, i int64) []byte {
	b, u := AppendSign(b, i)
	return AppendUint(b, u)
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
	return appendUint(b, u)
}

// appendUint appends u, at least 10. The digits are written where they
// go, two at a time, after making room for as many as u has.
func appendUint(b []byte, u uint64) []byte {
	if u < 100 {
		return append(b, pairs[2*u], pairs[2*u+1])
	}
	n := digits(u)
	l := len(b)
	if cap(b)-l < n {
		b = append(b[:cap(b)], make([]byte, n)...)[:l]
	}
	b = b[:l+n]
	d := b[l : l+n]
	// Four digits a step: the next division waits only for this one, and
	// the four digits' own two are independent of it.
	for u >= 10000 {
		q := u / 10000
		r := uint32(u - q*10000)
		u = q
		hi, lo := r/100, r%100
		n -= 4
		d[n], d[n+1], d[n+2], d[n+3] = pairs[2*hi], pairs[2*hi+1], pairs[2*lo], pairs[2*lo+1]
	}
	if u >= 100 {
		r := u % 100
		u /= 100
		n -= 2
		d[n], d[n+1] = pairs[2*r], pairs[2*r+1]
	}
	if u >= 10 {
		d[0], d[1] = pairs[2*u], pairs[2*u+1]
	} else {
		d[0] = byte('0' + u)
	}
	return b
}

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
