package exercise

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/internal/golden"
)

const seeds = 40

// TestEveryQuestionHasOneAnswer generates every topic for many seeds and
// checks each question: distinct choices, one answer among them, and an
// event that settles it.
func TestEveryQuestionHasOneAnswer(t *testing.T) {
	for _, topic := range TopicNames() {
		for seed := uint64(1); seed <= seeds; seed++ {
			x, err := Generate(topic, seed)
			if err != nil {
				t.Fatal(err)
			}
			if len(x.Questions) < 2 {
				t.Errorf("%s seed %d: %d questions, want at least 2", topic, seed, len(x.Questions))
			}
			for i, q := range x.Questions {
				if err := q.Valid(); err != nil {
					t.Errorf("%s seed %d question %d: %v", topic, seed, i+1, err)
				}
				if len(q.Why) == 0 {
					t.Errorf("%s seed %d question %d: no worked answer", topic, seed, i+1)
				}
			}
		}
	}
}

// answerNames are answers that name a goroutine, P, M, pool worker or a
// count: the describer's sentence for the settling event must name them too.
var answerNames = regexp.MustCompile(`^([GPMw]\d+|\d+)$`)

// TestAnswersAreWhatTheRunSays checks that an answer naming a goroutine, a
// P, a thread, a worker or a number appears in the sentences of the events
// that settle it, so the key cannot drift from the run.
func TestAnswersAreWhatTheRunSays(t *testing.T) {
	checked := 0
	for _, topic := range TopicNames() {
		for seed := uint64(1); seed <= seeds; seed++ {
			x, err := Generate(topic, seed)
			if err != nil {
				t.Fatal(err)
			}
			for i, q := range x.Questions {
				a := q.Choices[q.Answer]
				if !answerNames.MatchString(a) || strings.HasPrefix(q.Text, "How many times") ||
					strings.Contains(q.Text, "How many workers") {
					continue // counts over the whole run, or a phrase
				}
				why := strings.Join(q.Why, " ")
				if !regexp.MustCompile(`\b` + a + `\b`).MatchString(why) {
					t.Errorf("%s seed %d question %d: answer %s is not in %q", topic, seed, i+1, a, why)
				}
				checked++
			}
		}
	}
	if checked < 200 {
		t.Errorf("only %d answers checked against the run", checked)
	}
}

// TestRulesBehindTheAnswers holds some answers to the rules they teach,
// over every seed: a new goroutine runs from runnext first, an overflow
// moves 128 + 1, a steal takes half.
func TestRulesBehindTheAnswers(t *testing.T) {
	for seed := uint64(1); seed <= seeds; seed++ {
		x, err := Generate("runnext", seed)
		if err != nil {
			t.Fatal(err)
		}
		creates := 0
		for _, e := range x.run().events {
			if e.Kind == gmp.KindGoCreate {
				creates++
			}
		}
		if got, want := x.Questions[1].Choices[x.Questions[1].Answer], "G"+strconv.Itoa(creates+1); got != want {
			t.Errorf("runnext seed %d: first to run is %s, want the newest, %s", seed, got, want)
		}
		x, err = Generate("overflow", seed)
		if err != nil {
			t.Fatal(err)
		}
		if got := x.Questions[1].Choices[x.Questions[1].Answer]; got != "129" {
			t.Errorf("overflow seed %d: %s moved, want 128 + 1", seed, got)
		}
		if got := x.Questions[0].Choices[x.Questions[0].Answer]; got != "G258" {
			t.Errorf("overflow seed %d: %s overflows, want G258 (G1 plus 256 in the ring and G257 in runnext)", seed, got)
		}
	}
}

// run runs the exercise's scenario again from its YAML.
func (x *Exercise) run() *run {
	r, err := newRun(x.Topic.Name, x.YAML)
	if err != nil {
		panic(err)
	}
	return r
}

// TestScenarioOpensAsPrinted parses the printed YAML as a user's file and
// checks that its run has the settling events where the questions say.
func TestScenarioOpensAsPrinted(t *testing.T) {
	for _, topic := range TopicNames() {
		x, err := Generate(topic, 7)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := scenarios.Parse(x.FileName(), []byte(x.YAML))
		if err != nil {
			t.Fatalf("%s: %v", topic, err)
		}
		m, err := gmp.New(sc.Config(), sc.Program())
		if err != nil {
			t.Fatal(err)
		}
		var events []gmp.Event
		m.SetSink(func(e gmp.Event) { events = append(events, e) })
		m.Run()
		d := gmp.NewDescriber(sc.Program())
		for i, q := range x.Questions {
			if q.Event >= len(events) || !strings.Contains(q.Why[0], d.Describe(events[q.Event])) {
				t.Errorf("%s question %d: event %d of the file's run is not the one the question cites (%q)", topic, i+1, q.Event+1, q.Why[0])
			}
		}
	}
}

func TestSameSeedSameExercise(t *testing.T) {
	for _, topic := range TopicNames() {
		var out [2]bytes.Buffer
		for i := range out {
			x, err := Generate(topic, 11)
			if err != nil {
				t.Fatal(err)
			}
			if err := x.Write(&out[i], Markdown, true); err != nil {
				t.Fatal(err)
			}
		}
		if out[0].String() != out[1].String() {
			t.Errorf("%s: two generations of seed 11 differ", topic)
		}
	}
	a, _ := Generate("steal", 1)
	b, _ := Generate("steal", 2)
	if a.YAML == b.YAML {
		t.Errorf("seeds 1 and 2 of steal drew the same scenario")
	}
}

func TestUnknownTopic(t *testing.T) {
	_, err := Generate("stealing", 1)
	if err == nil || !strings.Contains(err.Error(), "steal, syscall") {
		t.Fatalf("err = %v, want the list of topics", err)
	}
}

func TestGolden(t *testing.T) {
	for _, c := range []struct {
		file    string
		topic   string
		f       Format
		answers bool
	}{
		{"steal-3.txt", "steal", Text, false},
		{"steal-3-answers.txt", "steal", Text, true},
		{"steal-3-answers.md", "steal", Markdown, true},
		{"pingpong-3-answers.txt", "pingpong", Text, true},
		{"errgroup-3-answers.txt", "errgroup", Text, true},
		{"mutex-3-answers.txt", "mutex", Text, true},
		{"waitgroup-3-answers.txt", "waitgroup", Text, true},
	} {
		x, err := Generate(c.topic, 3)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := x.Write(&b, c.f, c.answers); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", c.file), b.Bytes())
	}
}

// docs/guide.md names every topic, quoted as the command line takes it.
func TestGuideListsTopics(t *testing.T) {
	doc, err := os.ReadFile("../../docs/guide.md")
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(doc)), " ")
	for _, topic := range TopicNames() {
		if !strings.Contains(flat, "`"+topic+"`") {
			t.Errorf("docs/guide.md does not list the exercise topic %s", topic)
		}
	}
}
