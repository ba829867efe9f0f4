package tui

import (
	"slices"
	"strings"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/teach/quiz"
)

// sessionQuiz is a session's questions (schedlab tui --quiz): the
// scenario's own, settled against the run when the quiz starts, and the
// ones the model poses at its decisions as the run produces events. The
// sheet keeps the answers, so stepping back over a question and forward
// again does not ask it twice.
type sessionQuiz struct {
	qs    []quiz.Question // ordered by At; at most one per event
	gen   *quiz.Generator
	sheet quiz.Sheet
	// skipped are the questions passed over with esc, by At.
	skipped map[int]bool
	// err names the scenario's questions the run could not settle.
	err error
}

// EnableQuiz starts asking: the scenario's questions, and with generate
// the model's own. It returns an error naming any question of the
// scenario the run cannot answer; the others are still asked.
func (s *Session) EnableQuiz(generate bool) error {
	q := &sessionQuiz{skipped: map[int]bool{}}
	s.quiz = q
	qs, err := quiz.Settle(s.cfg, s.sc.Program(), s.sc.Asks)
	q.err = err
	for _, x := range qs {
		// The UI opens on the first event: a question asked before it
		// is asked before the next one, unless that one answers it.
		x.At = max(x.At, 1)
		if x.Event >= x.At {
			q.qs = append(q.qs, x)
		}
	}
	if generate {
		q.gen = quiz.NewGenerator(s.sc.Program(), s.cfg.Procs, s.cfg.Seed)
		for i := range s.Known() {
			s.quizObserve(s.Event(i))
		}
	}
	return err
}

// quizObserve feeds the generator the run's next event (record calls it).
func (s *Session) quizObserve(e gmp.Event) {
	q := s.quiz
	if q == nil || q.gen == nil {
		return
	}
	gq, ok := q.gen.Observe(e)
	if !ok {
		return
	}
	i, found := slices.BinarySearchFunc(q.qs, gq.At, func(x quiz.Question, at int) int { return x.At - at })
	if found {
		return // the scenario's own question comes first
	}
	q.qs = slices.Insert(q.qs, i, gq)
}

// Quizzing reports whether the session asks questions.
func (s *Session) Quizzing() bool { return s.quiz != nil }

// NextQuestion is the first question still to ask before an event in
// [from, to], running the simulation on as far as needed; nil if none.
func (s *Session) NextQuestion(from, to int) *quiz.Question {
	q := s.quiz
	if q == nil {
		return nil
	}
	s.hist.Extend(to + 1)
	i, _ := slices.BinarySearchFunc(q.qs, from, func(x quiz.Question, at int) int { return x.At - at })
	for ; i < len(q.qs) && q.qs[i].At <= to; i++ {
		if _, answered := q.sheet.Answered(q.qs[i].At); !answered && !q.skipped[q.qs[i].At] {
			return &q.qs[i]
		}
	}
	return nil
}

// Answer records choice for the question asked before event at and
// reports whether it is right.
func (s *Session) Answer(at, choice int) bool {
	q := s.question(at)
	if q == nil {
		return false
	}
	return s.quiz.sheet.Answer(q, choice)
}

// Skip passes over the question asked before event at.
func (s *Session) Skip(at int) { s.quiz.skipped[at] = true }

// question is the question asked before event at, or nil.
func (s *Session) question(at int) *quiz.Question {
	if s.quiz == nil {
		return nil
	}
	i, found := slices.BinarySearchFunc(s.quiz.qs, at, func(x quiz.Question, at int) int { return x.At - at })
	if !found {
		return nil
	}
	return &s.quiz.qs[i]
}

// Score is how many questions were answered right, of how many answered.
func (s *Session) Score() (right, answered int) {
	if s.quiz == nil {
		return 0, 0
	}
	return s.quiz.sheet.Score()
}

// noteHeld reports whether note n, on event e, waits for an answer: it
// names the answer of the first question asked after e (its right
// choice, as a whole phrase: "P0's runnext"), which is still to answer,
// and it would still be on screen as the question is asked (within
// noteAge events). Once the question is answered or skipped it shows.
// (While a question is open, every note under it waits: the note panel
// sees to that.)
func (s *Session) noteHeld(n, e int) bool {
	q := s.quiz
	if q == nil {
		return false
	}
	i, _ := slices.BinarySearchFunc(q.qs, e+1, func(x quiz.Question, at int) int { return x.At - at })
	if i == len(q.qs) || q.qs[i].At-1 > e+noteAge || !mentions(s.sc.Notes[n].Text, q.qs[i].Correct()) {
		return false
	}
	_, answered := q.sheet.Answered(q.qs[i].At)
	return !answered && !q.skipped[q.qs[i].At]
}

// mentions reports whether text holds phrase as a whole, whatever the
// case: "2" is not in "G2", "P0's runnext" is in "…in P0's runnext, …".
func mentions(text, phrase string) bool {
	text, phrase = strings.ToLower(text), strings.ToLower(phrase)
	for from := 0; ; {
		i := strings.Index(text[from:], phrase)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(phrase)
		if (i == 0 || !wordByte(text[i-1])) && (end == len(text) || !wordByte(text[end])) {
			return true
		}
		from = i + 1
	}
}

func wordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 0x80
}
