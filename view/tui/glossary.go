package tui

import (
	"strings"
)

// glossaryEntry explains one word, column or symbol the screen shows.
type glossaryEntry struct {
	Panel, Term, Meaning string
	// Legend marks a timeline symbol: the timeline's title lists these,
	// so its legend and the glossary cannot disagree.
	Legend string
}

// glossary is every term the panels use, panel by panel, in the order
// the screen shows them (L opens it).
var glossary = []glossaryEntry{
	{Panel: "the scheduler's words", Term: "G", Meaning: "a goroutine: a function with a small stack of its own, which the scheduler starts, parks, wakes and resumes; G1 is main"},
	{Panel: "the scheduler's words", Term: "M", Meaning: "a machine: an operating-system thread; it runs goroutines only while it holds a P"},
	{Panel: "the scheduler's words", Term: "P", Meaning: "a processor: the right to run Go code, with a run queue of its own (runnext and a ring of 256); there are GOMAXPROCS of them"},
	{Panel: "the scheduler's words", Term: "runnext", Meaning: "a P's one slot ahead of its ring: a goroutine made runnable by the running one (created, woken) goes there and runs next, in the same time slice, instead of waiting behind the whole ring; the one it displaces goes to the ring's tail"},
	{Panel: "the scheduler's words", Term: "sysmon", Meaning: "the monitor thread, which runs without a P: it wakes every 20µs, backing off to 10ms when idle, takes Ps back from long system calls, and asks a goroutine to stop once it has seen the same time slice for 10ms, so a slice runs 10 to 20ms before it is preempted"},
	{Panel: "the scheduler's words", Term: "time slice", Meaning: "a P's run of goroutines from one schedtick: it starts when the P takes a G from its ring or a queue, and a G run from runnext inherits it"},
	{Panel: "Ps", Term: "run", Meaning: "the P's M runs a goroutine"},
	{Panel: "Ps", Term: "idle", Meaning: "the P is on the idle list, with no M"},
	{Panel: "Ps", Term: "sched", Meaning: "the P's M is in the scheduler, looking for a goroutine"},
	{Panel: "Ps", Term: "sys", Meaning: "the P's M is in a system call with its goroutine; the P stays attached until sysmon retakes it"},
	{Panel: "Ps", Term: "→M3", Meaning: "the P is handed to M3, which is waking up to run it"},
	{Panel: "Ps", Term: "handed", Meaning: "the P is off the idle list, on its way to a thread"},
	{Panel: "Ps", Term: "ran / seen", Meaning: "how long the goroutine has run, and how long sysmon has seen the same time slice; – when sysmon has not looked yet. sysmon preempts at its first pass once it has seen the slice for 10ms: the slice then has run 10ms plus however long sysmon took to first see it, up to its sleep of 10ms"},
	{Panel: "Ps", Term: "next", Meaning: "runnext: the goroutine the P runs next, ahead of its ring"},
	{Panel: "Ps", Term: "ring", Meaning: "the P's local run queue, a ring of 256: its length, then its first goroutines"},
	{Panel: "Ps", Term: "free", Meaning: "dead goroutine descriptors cached on the P for the next go statement"},
	{Panel: "Ps", Term: "tick", Meaning: "schedtick: how many times the P has scheduled; every 61st it looks at the global queue first"},
	{Panel: "queues", Term: "global", Meaning: "the global run queue: its length, then its first goroutines"},
	{Panel: "queues", Term: "timers", Meaning: "each P's timers: sleeps, select timeouts and a pool's purge, the soonest first"},
	{Panel: "queues", Term: "zombie", Meaning: "a select's time.After stopped because another case won: it stays in its P's heap, its time still the heap's earliest, until an add to the heap, or a check once it is due or once a quarter of the heap are zombies, takes it out"},
	{Panel: "queues", Term: "netpoll", Meaning: "goroutines parked on the network, and the M blocked in the poller if any"},
	{Panel: "Ms", Term: "M0 P0·G1", Meaning: "M0 holds P0 and runs G1"},
	{Panel: "Ms", Term: "M2 P1→G5", Meaning: "M2 holds P1 and is about to run G5"},
	{Panel: "Ms", Term: "spin", Meaning: "a spinning M: it holds a P and looks for work to steal"},
	{Panel: "Ms", Term: "waking→P3", Meaning: "an M being woken (or created) to run P3"},
	{Panel: "Ms", Term: "sysmon", Meaning: "the monitor thread: it sleeps 20µs to 10ms, retakes Ps from syscalls and preempts long slices"},
	{Panel: "Ms", Term: "cpu1", Meaning: "with cpus: or load: set, the CPU the thread runs on"},
	{Panel: "Ms", Term: "off-CPU", Meaning: "the thread could run but the kernel gave its CPU to another thread: it and the P it holds wait"},
	{Panel: "pools", Term: "8/16 run", Meaning: "running workers against the pool's capacity (∞: unlimited)"},
	{Panel: "pools", Term: "wait", Meaning: "submitters waiting for a worker, first come first served"},
	{Panel: "pools", Term: "w14 49ms/50ms", Meaning: "idle worker w14, idle 49ms of the 50ms expiry; the next task goes to the first listed"},
	{Panel: "pools", Term: "purge in", Meaning: "when the pool's purge timer fires to stop expired workers"},
	{Panel: "timeline", Term: "━", Meaning: "a goroutine running, in its colour, its name where it starts", Legend: "run"},
	{Panel: "timeline", Term: "≈", Meaning: "a goroutine in a system call, its P still attached", Legend: "syscall"},
	{Panel: "timeline", Term: "!", Meaning: "a goroutine preempted", Legend: "preempted"},
	{Panel: "timeline", Term: "S", Meaning: "the P stole goroutines from another", Legend: "steal"},
	{Panel: "timeline", Term: "R", Meaning: "the P was retaken from a system call", Legend: "retake"},
	{Panel: "timeline", Term: "O", Meaning: "the P's ring overflowed: half went to the global queue", Legend: "overflow"},
	{Panel: "events", Term: "go-create, go-start…", Meaning: "the event's kind, as runtime/trace names it (schedlab list has them all); the sentence under the log says what the current one did and the runtime function it models"},
}

// timelineLegend is the timeline title's key to its symbols.
func timelineLegend() string {
	var parts []string
	for _, e := range glossary {
		if e.Legend != "" {
			parts = append(parts, e.Term+" "+e.Legend)
		}
	}
	return strings.Join(parts, " ")
}

// glossaryLines are the overlay's lines, wrapped to w.
func glossaryLines(w int) []string {
	var out []string
	panel := ""
	for _, e := range glossary {
		if e.Panel != panel {
			if panel != "" {
				out = append(out, "")
			}
			panel = e.Panel
			out = append(out, panel)
		}
		// The term in a column of its own, the meaning wrapped beside it.
		const termW = 16
		for i, line := range wrap(e.Meaning, max(w-2-termW, 10)) {
			lead := strings.Repeat(" ", termW)
			if i == 0 {
				lead = e.Term + strings.Repeat(" ", max(termW-width(e.Term), 1))
			}
			out = append(out, "  "+lead+line)
		}
	}
	return out
}

// glossaryOverlay draws the glossary over the screen.
type glossaryOverlay struct{ overlay }

func (g *glossaryOverlay) draw(c canvas, f frame) {
	t := f.theme
	w, h := min(c.w-2, 110), c.h-2
	box := canvas{scr: c.scr, x: c.x + (c.w-w)/2, y: c.y + 1, w: w, h: h}
	box.frame(" what the screen shows · ↓ ↑ pgdn pgup scroll · esc or L closes ", t)
	lines := glossaryLines(w - 4)
	rows := h - 2
	top := g.shown(len(lines), rows)
	for i := 0; i < rows && top+i < len(lines); i++ {
		line := lines[top+i]
		style := t.Base
		if line != "" && line[0] != ' ' {
			style = t.Title
		}
		box.text(2, 1+i, line, style)
	}
}

func (a *App) toggleGlossary() {
	a.gloss.toggle()
}
