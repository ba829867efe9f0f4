package sim

import "math"

// Rand is the simulation's only source of randomness: a SplitMix64
// generator. Its entire state is one word, so a snapshot of a simulation
// copies it with the rest of the state and a restored run draws the same
// numbers again.
type Rand struct {
	state uint64
}

// NewRand returns a generator for seed. Equal seeds give equal sequences.
func NewRand(seed uint64) Rand {
	return Rand{state: seed}
}

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Uint32 returns the next 32 random bits, like the runtime's cheaprand.
func (r *Rand) Uint32() uint32 { return uint32(r.Uint64() >> 32) }

// Int63n returns a uniform value in [0, n). It panics if n <= 0, which is a
// programming error in the caller, never a consequence of user input.
func (r *Rand) Int63n(n int64) int64 {
	if n <= 0 {
		panic("sim: Int63n with n <= 0")
	}
	// Rejection sampling keeps the result unbiased.
	max := uint64(math.MaxUint64 - (math.MaxUint64 % uint64(n)))
	for {
		v := r.Uint64()
		if v < max {
			return int64(v % uint64(n))
		}
	}
}

// Float64 returns a uniform value in [0, 1).
func (r *Rand) Float64() float64 {
	return float64(r.Uint64()>>11) / (1 << 53)
}

// ExpFloat64 returns an exponentially distributed value with mean 1.
func (r *Rand) ExpFloat64() float64 {
	// 1-u lies in (0, 1], so the logarithm is finite.
	return -math.Log(float64(1 - r.Float64()))
}
