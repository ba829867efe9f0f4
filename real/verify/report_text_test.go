package verify

import (
	"strings"
	"testing"
)

// verify's text report shows the scenario's name and the notes (a model's
// error quotes the scenario) with their control characters visible: an
// escape sequence in a shared file does not reach the terminal, and a tab
// in a name does not move the summary's columns.
func TestTextReportShowsControlCharacters(t *testing.T) {
	const hostile = "\x1b]0;pwned\a\x1b]52;c;aGk=\a\x1b[2J\u009b31m\x7f\r\t"
	rep := &Report{Scenario: "x" + hostile, Procs: 2, Seeds: []uint64{1}, Runs: 2, Go: "go1.26.0", Load: "load" + hostile,
		Notes: []string{"the model's run ended badly: channel c" + hostile + " deadlocks\n\thint: a hint"}}
	rep.Judge([]Observables{{Goroutines: 3}}, []Observables{{Goroutines: 3}, {Goroutines: 4}})
	var text, summary strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := WriteSummary(&summary, []*Report{rep}); err != nil {
		t.Fatal(err)
	}
	const shown = `\x1b]0;pwned\x07\x1b]52;c;aGk=\x07\x1b[2J\u009b31m\x7f\r\t`
	for _, c := range []struct{ name, out, want string }{
		{"the report", text.String(), "x" + shown + ": the model"},
		{"the report", text.String(), "; load" + shown + ")"},
		// A note keeps its lines and tabs: an error's hint is on a line
		// of its own.
		{"the report", text.String(), "note: the model's run ended badly: channel c" + strings.TrimSuffix(shown, `\t`) + "\t deadlocks\n\thint: a hint\n"},
		{"the summary", summary.String(), "x" + shown + "  "},
	} {
		if !strings.Contains(c.out, c.want) {
			t.Errorf("%s lacks %q:\n%s", c.name, c.want, c.out)
		}
		for _, r := range c.out {
			if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f {
				t.Errorf("%s has %U raw:\n%q", c.name, r, c.out)
				break
			}
		}
	}
}
