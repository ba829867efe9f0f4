// Package export writes a run of the model for tools outside the
// terminal: a Chrome trace-event file that the Perfetto UI,
// chrome://tracing and speedscope open (perfetto.go, on tracefile.go), an
// SVG timeline for slides (svg.go), and a Markdown handout of a
// scenario's notes with the events around each (handout.go).
//
// They stream: Run steps the model into them, and they keep only what a
// later event needs (the slices still open, and for the trace the sources
// of wake-ups not yet followed by a run). What they show of the queues
// they read from the machine after each step, never work out from the
// events.
//
// The trace-event format is JSON (the "JSON Array Format" of Chrome's
// Trace Event Format, which Perfetto reads). No maintained Go library
// writes it: the one there is (omaskery/teffy) has not changed since 2022
// and builds every event as a map, and Go's own writer is internal to the
// toolchain. The format needs six kinds of records, so this package
// writes them itself, with tracelog's RFC 8259 string escaping; the tests
// check the files against the format's rules (traceevent_test.go) and
// import them with speedscope (speedscope_test.go).
package export
