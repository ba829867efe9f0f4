// Package teach groups what turns a run into questions, each answer read
// from the model's own events, never typed by hand:
//
//   - quiz: the questions a scenario asks (ask:) and those the model poses
//     at its decisions (tui --quiz).
//   - exercise: homework drawn from a seed, one topic at a time, with
//     numbered questions and the events that settle them.
//   - class: the classroom server of schedlab class, through which a room
//     of students follows a run and answers its questions.
package teach
