package prog

import (
	"strings"
	"testing"
)

// A select becomes a select statement: its cases in the order written,
// on the channels' identifiers (a name that is not a Go identifier is
// spelled as one), time.After for a timeout, the default, and each
// case's body; select: {} is select {}. A go statement inside a case
// makes the goroutine keep its WaitGroup.
func TestSelectTranslation(t *testing.T) {
	prog := translate(t, `procs: 2
chans: {jobs-é: 0, out: 1}
main:
  - select:
      cases:
        - recv: jobs-é
          do: [{go: {do: [gosched]}}]
        - send: out
        - after: {uniform: [1ms, 2ms]}
          do: [exit]
      default: [gosched]
  - select: {}
`)
	// gofmt aligns the comments: compare with the spaces collapsed.
	src := strings.Join(strings.Fields(string(prog.Main)), " ")
	for _, want := range []string{
		"var children sync.WaitGroup",
		"select { // select, line 4",
		"case <-ch_jobs__u00e9: // line 6",
		"children.Add(1)",
		"case ch_out <- struct{}{}: // line 8",
		"case <-time.After(uniform(1*time.Millisecond, 2*time.Millisecond)): // line 9",
		"runtime.Goexit()",
		"default: // line 11",
		"select { // select, line 12 } }",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the program lacks %q:\n%s", want, src)
		}
	}
	if strings.Contains(src, "jobs-é") {
		t.Errorf("a channel's name reached the program's code:\n%s", src)
	}
}
