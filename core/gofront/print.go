package gofront

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"strings"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
)

// What a program prints is the model's print: action, with the line as
// Go would write it. The front end formats it as it reads the program,
// with Go's own fmt, from the values it can evaluate: each is made into
// a Go value of its static type (an int8 stays an int8, a
// time.Duration prints as 1s), so that fmt's verbs, widths and spacing
// are fmt's. A value it cannot evaluate, or one whose formatting would
// depend on the run (an address, a String method of the file's), is an
// error at the call.

// printCall is fmt.Print, Println and Printf, and log's.
func printCall(t *translator, s *site) []value {
	name := s.fn.Name()
	what := shortName(s.fn)
	args, exprs, typs := s.args, s.x.Args, t.argTypes(s.x)
	format := ""
	if name == "Printf" {
		f := s.arg(0)
		if f.k != kConst || f.c.Kind() != constant.String {
			if f.why != "" {
				t.refuse(s.argPos(0), "print value", f.why)
			}
			return t.printResults(s, "")
		}
		t.use(f)
		format = constant.StringVal(f.c)
		if len(args) > 0 {
			args = args[1:]
		}
		if len(exprs) > 0 {
			exprs = exprs[1:]
		}
		if len(typs) > 0 {
			typs = typs[1:]
		}
	}
	if s.x.Ellipsis.IsValid() {
		t.refuse(s.x.Pos(), "print text", what+"(xs...): the values' own types are not followed; pass them one by one")
		return t.printResults(s, "")
	}
	vals, ok := t.goValues(args, exprs, typs, s.x.Pos())
	if !ok {
		return t.printResults(s, "")
	}
	if strings.Contains(format, "%p") {
		t.refuse(s.argPos(0), "print text", what+" of %p: an address is decided as the program runs")
		return t.printResults(s, "")
	}
	var text string
	switch name {
	case "Println":
		text = fmt.Sprintln(vals...)
	case "Print":
		text = fmt.Sprint(vals...)
	case "Printf":
		text = fmt.Sprintf(format, vals...)
	}
	t.emitPrint(s.x.Pos(), what, text)
	return t.printResults(s, text)
}

// printResults are fmt.Print's results: the bytes written and no error.
func (t *translator) printResults(s *site, text string) []value {
	if s.fn.Pkg().Path() == "log" {
		return nil
	}
	return t.results(s, constVal(constant.MakeInt64(int64(len(text)))), value{k: kNil})
}

// argTypes are the static types of a call's arguments: f(g()) passes
// g's results.
func (t *translator) argTypes(x *ast.CallExpr) []types.Type {
	if len(x.Args) == 1 {
		if tup, ok := t.info.TypeOf(x.Args[0]).(*types.Tuple); ok {
			out := make([]types.Type, tup.Len())
			for i := range out {
				out[i] = tup.At(i).Type()
			}
			return out
		}
	}
	out := make([]types.Type, len(x.Args))
	for i, a := range x.Args {
		out[i] = t.info.TypeOf(a)
	}
	return out
}

// goValues makes the printed values into Go values, reporting the first
// it cannot.
func (t *translator) goValues(args []value, exprs []ast.Expr, typs []types.Type, at token.Pos) ([]any, bool) {
	out := make([]any, len(args))
	for i, v := range args {
		pos := at
		if i < len(exprs) {
			pos = exprs[i].Pos()
		}
		var typ types.Type
		if i < len(typs) {
			typ = typs[i]
		}
		gv, why := t.goValue(v, typ)
		if why != "" {
			t.refuse(pos, "print value", why)
			return nil, false
		}
		if gv == errRefused {
			return nil, false
		}
		t.use(v)
		out[i] = gv
	}
	return out, true
}

// errRefused stands for a value whose construct was refused already.
var errRefused = new(int)

// goValue makes v, of static type typ, into the Go value fmt would get;
// why says what it depends on when it cannot.
func (t *translator) goValue(v value, typ types.Type) (any, string) {
	if v.k == kUnknown {
		if v.why == "" {
			return errRefused, ""
		}
		return nil, v.why
	}
	if typ == nil {
		return nil, "a value of a type the front end does not know"
	}
	if _, isIface := typ.Underlying().(*types.Interface); isIface {
		switch v.k {
		case kNil:
			return nil, ""
		case kErr:
			return nil, "an error, whose text is not followed"
		}
		return nil, fmt.Sprintf("a value of interface type %s, whose dynamic type is not followed", typeName(typ))
	}
	rt, why := t.reflectType(typ)
	if why != "" {
		return nil, why
	}
	rv := reflect.New(rt).Elem()
	if why := t.setReflect(rv, v, typ); why != "" {
		return nil, why
	}
	return rv.Interface(), ""
}

// setReflect stores v into rv, of Go type typ.
func (t *translator) setReflect(rv reflect.Value, v value, typ types.Type) (why string) {
	defer func() {
		// go/constant and reflect panic on kinds they cannot combine; the
		// type checker keeps those out, but a print is never worth a crash.
		if recover() != nil {
			why = fmt.Sprintf("a value of type %s that the front end does not format", typeName(typ))
		}
	}()
	switch v.k {
	case kUnknown:
		if v.why == "" {
			return "a value refused above"
		}
		return v.why
	case kNil:
		if rv.Kind() == reflect.Slice {
			return "" // a nil slice prints []
		}
	case kConst:
		c := v.c
		switch rv.Kind() {
		case reflect.Bool:
			if c.Kind() == constant.Bool {
				rv.SetBool(constant.BoolVal(c))
				return ""
			}
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if n, ok := constant.Int64Val(constant.ToInt(c)); ok && !rv.OverflowInt(n) {
				rv.SetInt(n)
				return ""
			}
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			if n, ok := constant.Uint64Val(constant.ToInt(c)); ok && !rv.OverflowUint(n) {
				rv.SetUint(n)
				return ""
			}
		case reflect.Float32, reflect.Float64:
			if f, ok := constant.Float64Val(constant.ToFloat(c)); ok || c.Kind() == constant.Float {
				rv.SetFloat(f)
				return ""
			}
		case reflect.Complex64, reflect.Complex128:
			re, _ := constant.Float64Val(constant.ToFloat(constant.Real(c)))
			im, _ := constant.Float64Val(constant.ToFloat(constant.Imag(c)))
			rv.SetComplex(complex(re, im))
			return ""
		case reflect.String:
			if c.Kind() == constant.String {
				rv.SetString(constant.StringVal(c))
				return ""
			}
		}
	case kSlice:
		var elem types.Type
		switch u := typ.Underlying().(type) {
		case *types.Slice:
			elem = u.Elem()
			rv.Set(reflect.MakeSlice(rv.Type(), v.sl.len, v.sl.len))
		case *types.Array:
			elem = u.Elem()
			if int64(v.sl.len) != u.Len() {
				return "an array the front end does not follow"
			}
		default:
			return "a value the front end does not format"
		}
		if _, isIface := elem.Underlying().(*types.Interface); isIface {
			return fmt.Sprintf("the elements of a []%s, whose dynamic types are not followed", typeName(elem))
		}
		for i := 0; i < v.sl.len; i++ {
			if why := t.setReflect(rv.Index(i), t.elemAt(v.sl, i, t.at), elem); why != "" {
				return why
			}
		}
		return ""
	}
	return fmt.Sprintf("a value of type %s that the front end does not format", typeName(typ))
}

// reflectType is the Go type fmt sees for typ: the basic types, slices
// and arrays of them, and time.Duration. A type of the file's own is
// its underlying type, unless it has a method fmt would call.
func (t *translator) reflectType(typ types.Type) (reflect.Type, string) {
	if isNamed(typ, "time", "Duration") {
		if _, ptr := typ.(*types.Pointer); !ptr {
			return reflect.TypeFor[time.Duration](), ""
		}
	}
	if n, ok := typ.(*types.Named); ok {
		if n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "main" {
			return nil, fmt.Sprintf("a %s, which the front end does not format", typeName(typ))
		}
		ms := types.NewMethodSet(typ)
		for _, m := range []string{"String", "Error", "Format", "GoString"} {
			if ms.Lookup(n.Obj().Pkg(), m) != nil {
				return nil, fmt.Sprintf("a value of type %s, whose %s method the front end does not run", typeName(typ), m)
			}
		}
	}
	switch u := typ.Underlying().(type) {
	case *types.Basic:
		if rt, ok := basicTypes[u.Kind()]; ok {
			return rt, ""
		}
	case *types.Slice:
		et, why := t.reflectType(u.Elem())
		if why != "" {
			return nil, why
		}
		return reflect.SliceOf(et), ""
	case *types.Array:
		et, why := t.reflectType(u.Elem())
		if why != "" {
			return nil, why
		}
		if u.Len() > maxSlice {
			return nil, "an array too long to follow"
		}
		return reflect.ArrayOf(int(u.Len()), et), ""
	case *types.Interface:
		return reflect.TypeFor[any](), ""
	case *types.Pointer, *types.Chan, *types.Signature:
		return nil, fmt.Sprintf("a %s, which prints as an address decided as the program runs", typeName(typ))
	case *types.Map:
		return nil, "a map, whose contents are not followed"
	case *types.Struct:
		return nil, "a struct, whose fields are not followed"
	}
	return nil, fmt.Sprintf("a %s, which the front end does not format", typeName(typ))
}

var basicTypes = map[types.BasicKind]reflect.Type{
	types.Bool: reflect.TypeFor[bool](), types.UntypedBool: reflect.TypeFor[bool](),
	types.Int: reflect.TypeFor[int](), types.UntypedInt: reflect.TypeFor[int](),
	types.Int8: reflect.TypeFor[int8](), types.Int16: reflect.TypeFor[int16](),
	types.Int32: reflect.TypeFor[int32](), types.UntypedRune: reflect.TypeFor[int32](),
	types.Int64: reflect.TypeFor[int64](),
	types.Uint:  reflect.TypeFor[uint](), types.Uint8: reflect.TypeFor[uint8](),
	types.Uint16: reflect.TypeFor[uint16](), types.Uint32: reflect.TypeFor[uint32](),
	types.Uint64: reflect.TypeFor[uint64](), types.Uintptr: reflect.TypeFor[uintptr](),
	types.Float32: reflect.TypeFor[float32](), types.Float64: reflect.TypeFor[float64](),
	types.UntypedFloat: reflect.TypeFor[float64](),
	types.Complex64:    reflect.TypeFor[complex64](), types.Complex128: reflect.TypeFor[complex128](),
	types.UntypedComplex: reflect.TypeFor[complex128](),
	types.String:         reflect.TypeFor[string](), types.UntypedString: reflect.TypeFor[string](),
}

func typeName(typ types.Type) string {
	return types.TypeString(typ, func(p *types.Package) string { return p.Name() })
}

// builtinPrint is print and println, which write to standard error
// without fmt: strings, integers and bools as fmt writes them, and
// floats, pointers and the rest in a form of their own, which the front
// end does not write.
func (t *translator) builtinPrint(name string, args []value, x *ast.CallExpr) {
	typs := t.argTypes(x)
	parts := make([]string, 0, len(args))
	for i, v := range args {
		var typ types.Type
		if i < len(typs) {
			typ = typs[i]
		}
		pos := x.Pos()
		if i < len(x.Args) {
			pos = x.Args[i].Pos()
		}
		if typ == nil {
			return
		}
		if b, ok := typ.Underlying().(*types.Basic); !ok || b.Info()&(types.IsString|types.IsInteger|types.IsBoolean) == 0 {
			if v.k != kUnknown || v.why != "" {
				t.refuse(pos, "print text", fmt.Sprintf("%s of a %s writes it in the builtin's own form; print it with fmt", name, typeName(typ)))
			}
			return
		}
		gv, why := t.goValue(v, typ)
		if why != "" {
			t.refuse(pos, "print value", why)
			return
		}
		if gv == errRefused {
			return
		}
		t.use(v)
		parts = append(parts, fmt.Sprint(gv))
	}
	text := strings.Join(parts, "")
	if name == "println" {
		text = strings.Join(parts, " ") + "\n"
	}
	t.emitPrint(x.Pos(), name, text)
}

// emitPrint is the print action of a line: the newline at its end ends
// it, and there may be no other.
func (t *translator) emitPrint(at token.Pos, what, text string) {
	line := strings.TrimSuffix(text, "\n")
	switch {
	case strings.ContainsAny(line, "\r\n"):
		t.refuse(at, "print text", fmt.Sprintf("%s writes several lines (%q): the model's print writes one", what, clip(line)))
		return
	case len(line) > gmp.MaxPrintText:
		t.refuse(at, "print text", fmt.Sprintf("%s writes %d bytes, more than the %d of a line the model prints", what, len(line), gmp.MaxPrintText))
		return
	}
	t.emit(item{op: gmp.Op{Kind: gmp.OpPrint, Text: line, Pos: t.pos(at)}})
}
