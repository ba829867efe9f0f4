package scenarios

import (
	"strings"
	"testing"
)

// Each hostile input is refused with its line and column, quickly and in
// little memory, and its message quotes no more than a short, valid
// excerpt of the input.
func TestHostileInputs(t *testing.T) {
	want := map[string]string{
		"deep flow":        "input.yaml:2:71: [ and { nested more than 64 deep",
		"deep block":       "a line indented more than 256 columns",
		"many lines":       "input.yaml:10001:1: the file has more than 10000 lines",
		"binary":           "input.yaml:3:1: the file is not UTF-8 text: byte 0xff at offset 28",
		"nul":              "input.yaml:1:9: the file is not UTF-8 text: byte 0x00 at offset 8",
		"overflow uniform": "input.yaml:3:25: uniform high 2562047h47m16.854775807s is longer than 8760h0m0s",
		"long sleep":       "input.yaml:3:35: sleep 1000000h0m0s is longer than 8760h0m0s",
		"long name":        `is not declared`,
		"many flow items":  "a [ ] or { } list of more than 10000 items",
	}
	for name, src := range hostileInputs {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("input.yaml", []byte(src))
			if err == nil {
				t.Fatal("accepted")
			}
			msg := err.Error()
			if !strings.Contains(msg, want[name]) {
				t.Errorf("error %q\nwant %q", clip(msg), want[name])
			}
			if len(msg) > 600 {
				t.Errorf("the message is %d bytes long", len(msg))
			}
		})
	}
}

// A UTF-8 byte order mark is not part of the YAML.
func TestByteOrderMark(t *testing.T) {
	sc, err := Parse("bom.yaml", []byte("\xef\xbb\xbfprocs: 2\nmain: [{cpu: 1ms}]\n"))
	if err != nil || sc.Procs != 2 {
		t.Fatalf("%v", err)
	}
}

// A did-you-mean only compares short names, and a long name is quoted
// short.
func TestClip(t *testing.T) {
	if closest(strings.Repeat("a", 1000), []string{strings.Repeat("a", 999)}) != "" {
		t.Error("a 1000-byte name got a suggestion")
	}
	if got := clip(strings.Repeat("é", 200)); len([]rune(got)) != maxQuoted || !strings.HasSuffix(got, "…") {
		t.Errorf("clip gave %d runes: %q", len([]rune(got)), got)
	}
	if clip("short") != "short" {
		t.Error("clip changed a short text")
	}
}
