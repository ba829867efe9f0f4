// Package view groups what shows a run to a person or a tool. Views read
// the model's events and snapshots; they never step the model themselves.
//
//   - tui: the terminal UI (tview and tcell/v2): stepping forward and back,
//     notes, the quiz, split views, themes.
//   - tracelog: the trace as aligned text for people or JSON lines for
//     programs, worded by gmp's one describer.
//   - export: files for tools outside the terminal: Perfetto/Chrome trace
//     JSON, SVG timelines, Markdown handouts.
package view
