package exercise

import (
	"fmt"
	"io"
	"strings"

	"github.com/schedlab/schedlab/internal/safetext"
)

// Format is how an exercise is printed.
type Format int

const (
	Text     Format = iota // for a terminal
	Markdown               // a handout
)

// ParseFormat reads a --format value.
func ParseFormat(s string) (Format, error) {
	switch s {
	case "text", "":
		return Text, nil
	case "md", "markdown":
		return Markdown, nil
	}
	return Text, fmt.Errorf("unknown format %q: use text or md", s)
}

// letter names the i'th choice.
func letter(i int) string { return string(rune('a' + i)) }

// FileName is the name the scenario is suggested to be saved under.
func (x *Exercise) FileName() string { return fmt.Sprintf("%s-%d.yaml", x.Topic.Name, x.Seed) }

// Write prints the exercise: the scenario, the questions and, if answers
// is set, the worked answers.
func (x *Exercise) Write(w io.Writer, f Format, answers bool) error {
	var b strings.Builder
	if f == Markdown {
		x.markdown(&b, answers)
	} else {
		x.text(&b, answers)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// The exercises' text is schedlab's own, drawn from its topics, but it
// goes to a terminal or a page as a scenario's would, through safetext:
// one way to write text for each destination, whoever wrote the text.

func (x *Exercise) text(b *strings.Builder, answers bool) {
	fmt.Fprintf(b, "Exercise %s, seed %d: %s\n\n", x.Topic.Name, x.Seed, safetext.Term(x.Topic.Title))
	fmt.Fprintf(b, "%s\nSave the scenario as %s and step through it with `schedlab tui %s`:\n\n",
		safetext.Term(x.Scenario.Summary), x.FileName(), x.FileName())
	for _, line := range strings.Split(strings.TrimRight(x.YAML, "\n"), "\n") {
		b.WriteString("    " + safetext.Term(line) + "\n")
	}
	b.WriteString("\nQuestions\n")
	for i, q := range x.Questions {
		fmt.Fprintf(b, "\n%2d. %s\n", i+1, safetext.Term(q.Text))
		for j, c := range q.Choices {
			fmt.Fprintf(b, "      %s) %s\n", letter(j), safetext.Term(c))
		}
	}
	if !answers {
		fmt.Fprintf(b, "\n(the answers: schedlab exercise %s --seed %d --answers)\n", x.Topic.Name, x.Seed)
		return
	}
	b.WriteString("\nAnswers\n")
	for i, q := range x.Questions {
		fmt.Fprintf(b, "\n%2d. %s) %s\n", i+1, letter(q.Answer), safetext.Term(q.Choices[q.Answer]))
		for _, why := range q.Why {
			fmt.Fprintf(b, "      %s\n", safetext.Term(why))
		}
	}
}

func (x *Exercise) markdown(b *strings.Builder, answers bool) {
	fmt.Fprintf(b, "# Exercise: %s (seed %d)\n\n%s. %s\n\n", safetext.Markdown(x.Topic.Name), x.Seed,
		safetext.Markdown(upperFirst(x.Topic.Title)), safetext.Markdown(x.Scenario.Summary))
	fmt.Fprintf(b, "Save the scenario as %s; %s steps through it.\n\n%s\n## Questions\n",
		safetext.CodeSpan(x.FileName()), safetext.CodeSpan("schedlab tui "+x.FileName()), safetext.CodeBlock("yaml", x.YAML))
	for i, q := range x.Questions {
		fmt.Fprintf(b, "\n%d. %s\n\n", i+1, safetext.Markdown(q.Text))
		for j, c := range q.Choices {
			fmt.Fprintf(b, "   %s) %s  \n", letter(j), safetext.Markdown(c))
		}
	}
	if !answers {
		return
	}
	b.WriteString("\n## Answer key\n")
	for i, q := range x.Questions {
		fmt.Fprintf(b, "\n%d. **%s) %s**\n", i+1, letter(q.Answer), safetext.Markdown(q.Choices[q.Answer]))
		for _, why := range q.Why {
			fmt.Fprintf(b, "   - %s\n", safetext.Markdown(why))
		}
	}
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
