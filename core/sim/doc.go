// Package sim is the discrete-event engine under the scheduler model.
//
// It knows nothing about goroutines. It provides what any deterministic
// simulation needs and nothing that would make one nondeterministic:
//
//   - Time: a virtual clock in nanoseconds since the start of a run. Time
//     advances from one scheduled wake-up to the next (next-event time
//     advance), so an idle stretch of simulated time costs nothing.
//   - Agenda: the wake-ups still to come, ordered by time and, for equal
//     times, by the order they were scheduled. Nothing is ordered by map
//     iteration or by pointer value, so a run is reproducible.
//   - Rand: one seeded generator whose whole state is a value. Copying it
//     is part of taking a snapshot.
//   - History: checkpoints of a whole simulation taken every few steps, so
//     that a viewer can go back to any earlier event by restoring the
//     nearest checkpoint and replaying forward.
//
// Like etcd's raft core, nothing here reads the wall clock, the environment
// or a global random source, and nothing starts a goroutine.
package sim
