package exercise

import (
	"strings"
	"testing"
)

// An exercise writes its text as the scenario outputs write a scenario's:
// control characters visible on a terminal, markup escaped in a handout.
// Its text is schedlab's own today; the test holds the writers to it.
func TestExerciseTextIsWrittenSafely(t *testing.T) {
	x, err := Generate("steal", 3)
	if err != nil {
		t.Fatal(err)
	}
	const hostile = "\x1b]0;t\a <script>alert(1)</script>"
	x.Scenario.Summary = "S" + hostile
	x.Questions[0].Text = "# Q" + hostile
	x.Questions[0].Choices[x.Questions[0].Answer] += hostile
	x.Questions[0].Why[0] += hostile
	x.YAML += "# ```\n"

	var text, md strings.Builder
	if err := x.Write(&text, Text, true); err != nil {
		t.Fatal(err)
	}
	if err := x.Write(&md, Markdown, true); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(text.String(), "\x1b\a") || strings.Count(text.String(), `\x1b]0;t\x07 <script>`) != 5 {
		t.Errorf("the text is not shown safely:\n%s", text.String())
	}
	if strings.ContainsAny(md.String(), "\x1b\a") || strings.Contains(md.String(), "<script>") ||
		strings.Count(md.String(), `\<script\>`) != 5 || !strings.Contains(md.String(), "\n1. \\# Q") || !strings.Contains(md.String(), "\n````yaml\n") {
		t.Errorf("the handout is not escaped:\n%s", md.String())
	}
}
