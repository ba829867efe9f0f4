// Package export writes a run of the model for tools outside the
// terminal: a Chrome trace-event file that the Perfetto UI and
// chrome://tracing open (perfetto.go), and a Markdown handout of a
// scenario's notes with the events around each (handout.go).
//
// Both stream: they take the run's events one at a time, as the model
// emits them, and keep only what a later event needs (the slices still
// open, and for the trace the time and track of each event, for the flow
// arrows of causes).
//
// The trace-event format is JSON (the "JSON Array Format" of Chrome's
// Trace Event Format, which Perfetto reads). No maintained Go library
// writes it: the one there is (omaskery/teffy) has not changed since 2022
// and builds every event as a map, and Go's own writer is internal to the
// toolchain. The format needs five kinds of records, so this package
// writes them itself, with tracelog's RFC 8259 string escaping.
package export
