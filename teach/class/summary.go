package class

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
)

// QuestionSummary is how the class answered one question.
type QuestionSummary struct {
	Number  int
	Text    string
	Choices []string
	Counts  []int // answers by choice, from 0
	// Answer is the right choice from 0, or -1 when the question was
	// never revealed.
	Answer          int
	Answered, Right int
}

// PercentRight is the share of answers that were right, and false when
// there is none to count (no answer, or the answer never revealed).
func (q QuestionSummary) PercentRight() (float64, bool) {
	if q.Answer < 0 || q.Answered == 0 {
		return 0, false
	}
	return 100 * float64(q.Right) / float64(q.Answered), true
}

// Summary is every question asked so far, in the order first asked.
func (s *Server) Summary() []QuestionSummary {
	snap := s.live.Load()
	out := make([]QuestionSummary, 0, len(snap.records))
	for _, r := range snap.records {
		qs := QuestionSummary{Number: r.q.Number, Text: r.q.Text, Choices: r.q.Choices, Answer: r.answer}
		qs.Counts = make([]int, len(r.q.Choices))
		copy(qs.Counts, s.Tally(r.q.Number))
		for i, n := range qs.Counts {
			qs.Answered += n
			if i == r.answer {
				qs.Right += n
			}
		}
		out = append(out, qs)
	}
	return out
}

// WriteCSV writes the summary as CSV: a row per question with how many
// answered, how many were right and the share, the right choice, then
// each choice and its count.
func (s *Server) WriteCSV(w io.Writer) error {
	sum := s.Summary()
	most := 0
	for _, q := range sum {
		most = max(most, len(q.Choices))
	}
	cw := csv.NewWriter(w)
	head := []string{"question", "text", "answered", "right", "percent_right", "answer"}
	for i := range most {
		n := strconv.Itoa(i + 1)
		head = append(head, "choice_"+n, "count_"+n)
	}
	cw.Write(head)
	for _, q := range sum {
		row := []string{strconv.Itoa(q.Number), cell(q.Text), strconv.Itoa(q.Answered), "", "", ""}
		if pct, ok := q.PercentRight(); ok {
			row[3], row[4] = strconv.Itoa(q.Right), strconv.FormatFloat(pct, 'f', 0, 64)
		}
		if q.Answer >= 0 {
			row[5] = cell(q.Choices[q.Answer])
		}
		for i := range most {
			if i < len(q.Choices) {
				row = append(row, cell(q.Choices[i]), strconv.Itoa(q.Counts[i]))
			} else {
				row = append(row, "", "")
			}
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// cell keeps a spreadsheet from reading scenario text as a formula: a
// cell that starts like one gets a leading quote.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
