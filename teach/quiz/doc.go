// Package quiz asks questions about a run of the model: the questions a
// scenario carries (its ask: list) and the ones the model poses itself at
// its decisions (schedlab tui --quiz). The answer to every question is a
// fact of the run, read from its events, never typed by hand: when the
// model changes, the answer follows it, and a question whose answer is no
// longer among its choices fails the scenario's check.
//
// A fact names what is asked about (the G that runs next on P1, where G258
// goes, how many Gs P1 steals, how G5 stops, which M takes P0, which
// worker pool w reuses, how many workers its purge stops) and knows which
// event settles it and how that event answers it. The same table of facts
// serves the scenario's questions and the generated ones (fact.go).
//
// Both are fed the run's events one at a time, in order, so they work on
// runs of any length without keeping them: a Resolver settles a
// scenario's questions, a Generator poses questions at decision points.
// A Sheet keeps a student's answers and score.
package quiz
