package tui

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/gofront"
)

// S shows the program's source around the current event's line, the line
// marked, six lines each side; the text's control characters are shown,
// not sent; esc closes it.
func TestSourceOverlay(t *testing.T) {
	src := "package main\n\nimport (\n\t\"fmt\"\n\t\"time\"\n)\n\n// a comment with an escape: \x1b[31m\n\nfunc main() {\n\tgo func() {\n\t\ttime.Sleep(time.Millisecond)\n\t}()\n\tfmt.Println(\"hi\")\n\ttime.Sleep(2 * time.Millisecond)\n}\n"
	sc, err := gofront.Translate("main.go", []byte(src), gofront.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(sc, sc.Config(), Options{Mono: true})
	if err != nil {
		t.Fatal(err)
	}
	for range 200 {
		if e := a.sess.Event(a.sess.Cursor()); e.Kind == gmp.KindPrint {
			break
		}
		keys(a, "l")
	}
	if e := a.sess.Event(a.sess.Cursor()); e.Kind != gmp.KindPrint {
		t.Fatalf("no print event: at %v", e.Kind)
	}
	keys(a, "S")
	got := draw(t, a, 100, 30).text
	for _, want := range []string{
		" main.go:14:2 · the current event · esc or S closes ",
		"▶ 14      fmt.Println(\"hi\")",
		"   8  // a comment with an escape: \\x1b[31m",
		"  16  }",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the source overlay lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "   7  ") || strings.Contains(got, "\x1b") {
		t.Errorf("the overlay shows more than six lines before, or a raw escape:\n%s", got)
	}
	key(a, tcell.KeyEscape, 0)
	if got := draw(t, a, 100, 30).text; strings.Contains(got, "esc or S closes") {
		t.Errorf("esc left the source open:\n%s", got)
	}
}

func TestSourceWindow(t *testing.T) {
	src := []byte("a\nb\r\nc\nd\n")
	for _, c := range []struct {
		from, to, first int
		want            []string
	}{
		{-3, 2, 1, []string{"a", "b"}},
		{2, 3, 2, []string{"b", "c"}},
		{3, 10, 3, []string{"c", "d"}},
		{7, 9, 7, nil},
	} {
		got, first := sourceWindow(src, c.from, c.to)
		if !reflect.DeepEqual(got, c.want) || first != c.first {
			t.Errorf("sourceWindow(%d, %d) = %q from %d, want %q from %d", c.from, c.to, got, first, c.want, c.first)
		}
	}
	if got, _ := sourceWindow([]byte("x"), 1, 5); !reflect.DeepEqual(got, []string{"x"}) {
		t.Errorf("a last line without a line break: %q", got)
	}
}
