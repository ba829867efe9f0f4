// Package exercise generates homework in the manner of OSTEP's simulators: a
// small random scenario on one topic of the scheduler (or of the pool), drawn
// from a seed, and numbered questions about its run. Every answer is read off
// the model's own run of the scenario — the event that settles it, and the
// describer's sentence for that event as the worked explanation — so an
// answer key is never typed by hand and stays right when the model changes.
//
// The same topic and seed give the same scenario, questions and choices,
// byte for byte: the scenario is drawn from a sim.Rand, and the model is
// deterministic. Each question has one correct choice among distinct ones; a
// generator that cannot find an unambiguous question in its run draws again.
package exercise
