package gmp

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/schedlab/schedlab/internal/safetext"
)

// A sentence holds the describer's words and the names Names lists, and
// no other text of the program (Describer's doc; the trace writers rely
// on it to test the names once rather than every sentence). Every
// micro-program, of every rule and every action, runs with every string
// in it made hostile and distinct: quotes, a backslash, an escape, a
// bidi override. Each sentence, its names taken out, must then hold none
// of them, and nothing that JSON must escape or a terminal would act on.
// A wording that writes some other text of the program (a file, a new
// action's text) fails here: make the text one of Names if it is a
// declared name, or else mark its rule in holdsText, so that the writers
// test its sentences.
func TestSentencesHoldOnlyWordsAndNames(t *testing.T) {
	progs := map[string]microProg{}
	for r := Rule(1); r < numRules; r++ {
		if mp, ok := ruleProgs[r]; ok {
			progs[fmt.Sprintf("rule %d (%s)", r, r.Fn())] = mp
		}
	}
	for k, mp := range actionProgs {
		progs["action "+k.String()] = mp
	}
	for what, mp := range progs {
		n := 0
		mp.prog = hostileCopy(reflect.ValueOf(mp.prog), &n).Interface().(Program)
		d := NewDescriber(&mp.prog)
		names := d.Names()
		runMicro(t, mp, func(e Event) {
			if !d.OnlyNames(e.Rule) {
				return // the writers test these sentences
			}
			s := d.Describe(e)
			for _, name := range names {
				s = strings.ReplaceAll(s, name, "")
			}
			if strings.Contains(s, "hostile") {
				t.Fatalf("%s: %v's sentence holds the program's text besides its names: %q", what, e.Rule.Fn(), s)
			}
			if i := unsafeAt(s); i >= 0 {
				t.Fatalf("%s: %v's sentence has %q at %d, which JSON escapes or a terminal acts on: %q", what, e.Rule.Fn(), s[i:], i, s)
			}
		})
	}
}

// unsafeAt is where s has a byte or rune a JSON string must escape or a
// terminal would act on, or -1.
func unsafeAt(s string) int {
	for i, r := range s {
		if r < 0x20 || r == 0x7f || r == '"' || r == '\\' || r == utf8.RuneError || safetext.Unsafe(r) || !unicode.IsPrint(r) {
			return i
		}
	}
	return -1
}

// hostileCopy copies v, a program or a part of one, with each string
// replaced by a distinct hostile one.
func hostileCopy(v reflect.Value, n *int) reflect.Value {
	c := reflect.New(v.Type()).Elem()
	switch v.Kind() {
	case reflect.String:
		*n++
		c.SetString(fmt.Sprintf("hostile%d\"\\\x1b[31m\u202e", *n))
	case reflect.Struct:
		c.Set(v)
		for i := range v.NumField() {
			if c.Field(i).CanSet() {
				c.Field(i).Set(hostileCopy(v.Field(i), n))
			}
		}
	case reflect.Slice:
		if v.IsNil() {
			break
		}
		c.Set(reflect.MakeSlice(v.Type(), v.Len(), v.Len()))
		for i := range v.Len() {
			c.Index(i).Set(hostileCopy(v.Index(i), n))
		}
	case reflect.Pointer:
		if v.IsNil() {
			break
		}
		c.Set(reflect.New(v.Type().Elem()))
		c.Elem().Set(hostileCopy(v.Elem(), n))
	default:
		c.Set(v)
	}
	return c
}
