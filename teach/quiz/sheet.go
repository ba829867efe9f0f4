package quiz

// Sheet keeps a student's answers to a run's questions: each question is
// answered once, so stepping back over it and forward again does not ask
// it again, and the score counts first answers only.
type Sheet struct {
	// answers maps a question's event index to the choice given.
	answers map[int]int
	right   int
}

// Answered reports whether the question asked before event at has been
// answered, and with which choice.
func (s *Sheet) Answered(at int) (int, bool) {
	c, ok := s.answers[at]
	return c, ok
}

// Answer records choice as the answer to q and reports whether it is
// right. A question already answered keeps its first answer.
func (s *Sheet) Answer(q *Question, choice int) bool {
	if s.answers == nil {
		s.answers = map[int]int{}
	}
	if first, ok := s.answers[q.At]; ok {
		return first == q.Answer
	}
	s.answers[q.At] = choice
	if choice == q.Answer {
		s.right++
	}
	return choice == q.Answer
}

// Score returns how many questions were answered right, of how many.
func (s *Sheet) Score() (right, answered int) { return s.right, len(s.answers) }
