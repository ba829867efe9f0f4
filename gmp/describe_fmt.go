package gmp

import (
	"fmt"
	"strconv"
	"time"

	"github.com/schedlab/schedlab/sim"
)

// sprintf is fmt.Sprintf for the describer's sentences, which use only %v,
// %d and %s of a few types: it appends them without reflection or the
// types' String allocations, which made fmt most of the time of writing a
// trace. Anything else goes to fmt, so the output is fmt's either way.
func sprintf(format string, args ...any) string {
	b := make([]byte, 0, len(format)+32)
	arg := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b = append(b, c)
			continue
		}
		if i+1 >= len(format) {
			return string(b) + fmt.Sprintf(format[i:], args[arg:]...)
		}
		verb := format[i+1]
		if verb == '%' {
			b = append(b, '%')
			i++
			continue
		}
		if (verb != 'v' && verb != 'd' && verb != 's') || arg >= len(args) {
			// A verb with flags or width: leave the rest to fmt.
			return string(b) + fmt.Sprintf(format[i:], args[arg:]...)
		}
		b = appendArg(b, args[arg], verb)
		arg++
		i++
	}
	if arg < len(args) {
		return fmt.Sprintf(format, args...) // let fmt say what is extra
	}
	return string(b)
}

// appendArg appends one argument as fmt's %v, %d or %s would.
func appendArg(b []byte, a any, verb byte) []byte {
	switch x := a.(type) {
	case string:
		return append(b, x...)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case int32:
		return strconv.AppendInt(b, int64(x), 10)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case uint64:
		return strconv.AppendUint(b, x, 10)
	case GID:
		if verb == 'd' {
			return strconv.AppendInt(b, int64(x), 10)
		}
		if x == NoG {
			return append(b, '-')
		}
		return strconv.AppendInt(append(b, 'G'), int64(x), 10)
	case PID:
		if verb == 'd' {
			return strconv.AppendInt(b, int64(x), 10)
		}
		if x == NoP {
			return append(b, '-')
		}
		return strconv.AppendInt(append(b, 'P'), int64(x), 10)
	case MID:
		if verb == 'd' {
			return strconv.AppendInt(b, int64(x), 10)
		}
		if x == NoM {
			return append(b, '-')
		}
		return strconv.AppendInt(append(b, 'M'), int64(x), 10)
	case time.Duration:
		if verb == 'd' {
			return strconv.AppendInt(b, int64(x), 10)
		}
		return append(b, x.String()...)
	case sim.Time:
		if verb == 'd' {
			return strconv.AppendInt(b, int64(x), 10)
		}
		return append(b, x.String()...)
	}
	return fmt.Appendf(b, "%"+string(verb), a)
}
