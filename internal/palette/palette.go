// Package palette is the goroutine colours the UI and the exports share,
// so G5 is the same colour in the terminal and on a slide.
package palette

// Color is a colour by its name, as terminals know it, and its RGB value,
// as SVG writes it.
type Color struct {
	Name string
	Hex  string
}

// Gs are the goroutines' colours: bright, distinct, and readable on dark
// and light backgrounds.
var Gs = []Color{
	{"green", "#008000"}, {"aqua", "#00c8c8"}, {"fuchsia", "#d000d0"}, {"yellow", "#d0b000"},
	{"orange", "#ffa500"}, {"lime", "#40c040"}, {"deepskyblue", "#00bfff"}, {"hotpink", "#ff69b4"},
}

// For is goroutine g's colour.
func For(g int) Color { return Gs[g%len(Gs)] }
