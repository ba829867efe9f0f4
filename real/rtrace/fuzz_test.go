package rtrace

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzRead reads arbitrary bytes as a runtime trace, as schedlab trace and
// export --trace read a file anyone may send: whatever the bytes, Read
// returns a summary or an error, short valid text, and never panics, and
// each event it visits can be described. (Its strings are the trace's own,
// made safe where they are shown: TestUserTextReachesNoTerminalRaw.)
func FuzzRead(f *testing.F) {
	small, err := os.ReadFile(filepath.Join("..", "..", "view", "export", "testdata", "small.trace"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(small)
	panicked, err := os.ReadFile(filepath.Join("testdata", "procstatus-6144.trace"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(panicked)
	until, err := os.ReadFile(filepath.Join("testdata", "until-forever-cooperative.trace"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(until) // a scenario's, main's set-up before it marked
	f.Add(small[:len(small)/2])
	f.Add([]byte("go 1.23 trace\x00\x00\x00"))
	f.Add([]byte("procs: 1\nmain: [{cpu: 1ms}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, o := range []Options{{}, {Scenario: true, Limit: 1000}} {
			events := 0
			s, err := ReadWith(bytes.NewReader(data), o, func(e Event) {
				events++
				if e.Describe() == "" {
					t.Fatalf("event %d (%+v) has no description", events, e)
				}
			})
			if err != nil {
				// The reader's errors quote the trace's strings: the
				// message is still short, valid text on one line.
				if msg := err.Error(); !utf8.ValidString(msg) || strings.TrimSpace(msg) == "" || len(msg) > 2000 || strings.Contains(msg, "\n") {
					t.Fatalf("error %q", msg)
				}
				continue
			}
			if s == nil {
				t.Fatal("no summary and no error")
			}
			if o.Limit > 0 && events > o.Limit {
				t.Fatalf("visited %d events past the limit of %d", events, o.Limit)
			}
		}
	})
}
