package golden

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func TestDiffSaysWhere(t *testing.T) {
	for _, c := range []struct{ got, want, says string }{
		{"a\nb\n", "a\nb\n", ""},
		{"a\nx\n", "a\nb\n", "first at line 2:\n got: x\nwant: b"},
		{"a\nb\nc\n", "a\nb\n", "first at line 3:\n got: c\nwant: "},
		{"a\nb", "a\nb\nc", "2 lines, the golden file has 3"},
	} {
		if got := Diff([]byte(c.got), []byte(c.want)); got != c.says {
			t.Errorf("Diff(%q, %q) = %q, want %q", c.got, c.want, got, c.says)
		}
	}
}

func TestCommandNamesThisPackage(t *testing.T) {
	if got, want := Command(), "go test ./internal/golden -update"; got != want {
		t.Errorf("Command() = %q, want %q", got, want)
	}
}

// A file that matches passes; one that differs fails with where and how
// to rewrite it.
func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.txt")
	*update = true
	Check(t, path, []byte("one\ntwo\n"))
	*update = false
	Check(t, path, []byte("one\ntwo\n"))
	rec := &recorder{TB: t}
	Check(rec, path, []byte("one\nthree\n"))
	if !strings.Contains(rec.msg, "first at line 2") || !strings.Contains(rec.msg, "go test ./internal/golden -update") {
		t.Errorf("a difference says %q", rec.msg)
	}
}

// recorder catches an Errorf without failing the test that uses it.
type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.msg = strings.TrimSpace(sprintf(format, args...))
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
