package calibrate

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/internal/safetext"
	"github.com/schedlab/schedlab/internal/table"
)

type figureRow struct {
	name, label, sets string
	get               func(*Figures) Figure
}

// figureRows are the duration figures in the order a report shows them,
// with the costs each sets (doc.go's table says the same in prose).
var figureRows = []figureRow{
	{"futex_wake", "futex wake-up", "WakeM, NetpollWake (p10)", func(f *Figures) Figure { return f.FutexWake }},
	{"context_switch", "context switch", "-", func(f *Figures) Figure { return f.ContextSwitch }},
	{"nanosleep_slack", "nanosleep(20µs) slack", "UsleepSlack (p10), UsleepJitter (p90-p10)", func(f *Figures) Figure { return f.NanosleepSlack }},
	{"sleep_slack", "time.Sleep(1ms) slack", "-", func(f *Figures) Figure { return f.SleepSlack }},
	{"syscall", "system call", "Syscall", func(f *Figures) Figure { return f.Syscall }},
	{"go_create", "go statement", "Newproc", func(f *Figures) Figure { return f.GoCreate }},
	{"go_first_run", "go to first run", "-", func(f *Figures) Figure { return f.GoFirstRun }},
	{"handoff", "goroutine hand-off", "ChanOp, Schedule, Execute (scaled)", func(f *Figures) Figure { return f.Handoff }},
}

// tracedRows are the figures format 2 added: what a go statement costs
// when no dead goroutine's descriptor is there to reuse, and what the two
// fast figures cost in a program that runtime/trace records, the costs
// verify times the model with, its real runs being traced.
var tracedRows = []figureRow{
	{"go_create_fresh", "go statement, new descriptor", "NewG (less go_create)", func(f *Figures) Figure { return orZero(f.GoCreateFresh) }},
	{"traced_go_create", "go statement, traced", "Newproc (verify)", func(f *Figures) Figure { return orZero(f.TracedGoCreate) }},
	{"traced_handoff", "goroutine hand-off, traced", "ChanOp, Schedule, Execute (verify)", func(f *Figures) Figure { return orZero(f.TracedHandoff) }},
}

// gapRows are the figures format 3 added: the idle P a trace shows
// between a goroutine's stop and the next start, after a park, an exit
// and a Gosched, which verify's model leaves between the same two events.
var gapRows = []figureRow{
	{"traced_park_gap", "park to next start, traced", "Schedule (verify)", func(f *Figures) Figure { return orZero(f.TracedParkGap) }},
	{"traced_exit_gap", "exit to next start, traced", "ScheduleExit (verify)", func(f *Figures) Figure { return orZero(f.TracedExitGap) }},
	{"traced_yield_gap", "Gosched to next start, traced", "ScheduleYield (verify)", func(f *Figures) Figure { return orZero(f.TracedYieldGap) }},
}

// writeRows are the figures format 4 added: a printed line's write to a
// pipe whose reader waits, as schedlab real's programs print to the pipe
// their parent reads.
var writeRows = []figureRow{
	{"pipe_write", "write of a line to a pipe", "Write", func(f *Figures) Figure { return orZero(f.PipeWrite) }},
}

// wakeCallRows are the figures format 6 added: what a wake-up of a parked
// thread costs the thread that makes it (wakecall.go).
var wakeCallRows = []figureRow{
	{"wake_call", "wake-up, the waker's cost", "WakeCall", func(f *Figures) Figure { return orZero(f.WakeCall) }},
}

// firstWriteRows are the figures format 7 added: what a program's first
// write to its output costs more than its later ones (firstwrite.go).
var firstWriteRows = []figureRow{
	{"first_write", "first write, the extra", "FirstWrite", func(f *Figures) Figure { return orZero(f.FirstWrite) }},
	{"traced_first_write", "first write traced, the extra", "FirstWrite (verify)", func(f *Figures) Figure { return orZero(f.TracedFirstWrite) }},
}

// netpollWakeRows are the figures format 8 added: how long after a read's
// fd is ready the network poller returns its goroutine (netpollwake.go).
var netpollWakeRows = []figureRow{
	{"netpoll_wake", "netpoll wake-up", "NetpollWake (p10), NetpollJitter (p90-p10)", func(f *Figures) Figure { return orZero(f.NetpollWake) }},
}

// mutexSpinRows are the figures format 9 added: a round of spinning on a
// held sync.Mutex (mutexspin.go).
var mutexSpinRows = []figureRow{
	{"mutex_spin", "mutex spin, a round", "Spin", func(f *Figures) Figure { return orZero(f.MutexSpin) }},
}

// longSleepRows are the figures format 11 added: how late a 10ms
// nanosleep comes back.
var longSleepRows = []figureRow{
	{"nanosleep_slack_long", "nanosleep(10ms) slack", "UsleepSlackLong (p10)", func(f *Figures) Figure { return orZero(f.NanosleepSlackLong) }},
}

// busySleepRows are the figures format 13 added: how late a 10ms
// nanosleep comes back while another thread computes (gmp's
// sleepslack.go).
var busySleepRows = []figureRow{
	{"nanosleep_slack_long_busy", "nanosleep(10ms) slack beside work", "UsleepSlackLongBusy (p10)", func(f *Figures) Figure { return orZero(f.NanosleepSlackLongBusy) }},
}

// firstPrintRows are the figures format 10 added: what a program's first
// fmt.Println takes more than its later ones before it writes, fmt's
// first use (firstwrite.go).
var firstPrintRows = []figureRow{
	{"first_print", "first print, the extra", "FirstPrint", func(f *Figures) Figure { return orZero(f.FirstPrint) }},
	{"traced_first_print", "first print traced, the extra", "FirstPrint (verify)", func(f *Figures) Figure { return orZero(f.TracedFirstPrint) }},
}

// rows are the duration figures p's format has.
func (p *Profile) rows() []figureRow {
	rows := slices.Clone(figureRows)
	for _, later := range p.laterRows() {
		if later.has {
			rows = append(rows, later.rows...)
		}
	}
	if p.HasNetpollWake() {
		// netpoll_wake sets NetpollWake now, not futex_wake.
		for i := range rows {
			if rows[i].name == "futex_wake" {
				rows[i].sets = "WakeM (p10)"
			}
		}
	}
	return rows
}

// laterRow is the figures a later format added, and whether p has them.
type laterRow struct {
	rows []figureRow
	has  bool
}

// laterRows are the figures of the formats after the first, in the order
// they came, each with whether p's format has them.
func (p *Profile) laterRows() []laterRow {
	return []laterRow{{tracedRows, p.HasTraced()}, {gapRows, p.HasGaps()}, {writeRows, p.HasWrite()},
		{wakeCallRows, p.HasWakeCall()}, {firstWriteRows, p.HasFirstWrite()}, {netpollWakeRows, p.HasNetpollWake()},
		{mutexSpinRows, p.HasMutexSpin()}, {firstPrintRows, p.HasFirstPrint()}, {longSleepRows, p.HasLongSleep()},
		{busySleepRows, p.HasBusySleep()}}
}

// WriteText writes the profile for a person: the machine, each figure's
// median and spread and the costs it sets, and the costs the model takes
// from it.
func (p *Profile) WriteText(w io.Writer) error {
	k, err := p.Costs()
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", p.Describe())
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "figure\tmedian\tp10–p90\tmin–max\tsamples\tsets")
	for _, r := range p.rows() {
		f := r.get(&p.Figures)
		fmt.Fprintf(tw, "%s\t%s\t%s–%s\t%s–%s\t%d\t%s\n", r.label, dur(f.Median), dur(f.P10), dur(f.P90), dur(f.Min), dur(f.Max), f.Samples, r.sets)
	}
	ts := p.Figures.TimerSlack
	fmt.Fprintf(tw, "timer slack\t%s\t(%s)\t\t\t-\n", dur(ts.NS), ts.Source)
	c := p.Figures.CPUWork
	sets := "-"
	if p.HasGaps() {
		sets = "ParkGrowth's At (verify)"
	}
	fmt.Fprintf(tw, "cpu work (iterations/µs)\t%.0f\t%.0f–%.0f\t%.0f–%.0f\t%d\t%s\n", c.Median, c.P10, c.P90, c.Min, c.Max, c.Samples, sets)
	tw.Flush()
	if w := p.Figures.WakeAfterIdle; p.HasIdleWake() && w != nil {
		fmt.Fprintf(&b, "%s: sets IdleWake\n", w.line())
	}
	if w := p.Figures.WakePack; p.HasWakePack() && w != nil {
		fmt.Fprintf(&b, "%s: sets WakePack\n", w.line())
	}
	// The costs a later format's figures set, after the first ones.
	later := ""
	if p.HasTraced() {
		later = fmt.Sprintf(", NewG %v", k.NewG)
	}
	if p.HasWrite() {
		later += fmt.Sprintf(", Write %v", k.Write)
	}
	if p.HasWakeCall() {
		later += fmt.Sprintf(", WakeCall %v", k.WakeCall)
	}
	if p.HasFirstWrite() {
		later += fmt.Sprintf(", FirstWrite %v", k.FirstWrite)
	}
	if p.HasIdleWake() {
		later += ", IdleWake"
		for _, w := range k.IdleWake {
			if w.After > 0 {
				later += fmt.Sprintf(" %s %s", dur(float64(w.After)), share(w))
				if w.Share > 0 {
					later += fmt.Sprintf(" (%s–%s)", dur(float64(w.Min)), dur(float64(w.Max)))
				}
			}
		}
	}
	// A format before 9 leaves the mutex's spin at the default, one
	// before 10 the first print's.
	unmeasured := fmt.Sprintf("NewM %v, PreemptSignal %v", k.NewM, k.PreemptSignal)
	if p.HasMutexSpin() {
		later += fmt.Sprintf(", Spin %v", k.Spin)
	} else {
		unmeasured += fmt.Sprintf(", Spin %v", k.Spin)
	}
	if p.HasFirstPrint() {
		later += fmt.Sprintf(", FirstPrint %v", k.FirstPrint)
	} else {
		unmeasured += fmt.Sprintf(", FirstPrint %v", k.FirstPrint)
	}
	if p.HasLongSleep() {
		later += fmt.Sprintf(", UsleepSlackLong %v", k.UsleepSlackLong)
	}
	if p.HasBusySleep() {
		later += fmt.Sprintf(", UsleepSlackLongBusy %v", k.UsleepSlackLongBusy)
	}
	fmt.Fprintf(&b, "the model's costs: Newproc %v, Schedule %v, Execute %v, ChanOp %v, Syscall %v, WakeM %v, NetpollWake %v, NetpollJitter %v, UsleepSlack %v, UsleepJitter %v%s; not measured, the defaults: %s\n",
		k.Newproc, k.Schedule, k.Execute, k.ChanOp, k.Syscall, k.WakeM, k.NetpollWake, k.NetpollJitter, k.UsleepSlack, k.UsleepJitter, later, unmeasured)
	if p.HasTraced() {
		t, err := p.TracedCosts()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "verify's costs, its real runs being traced: Newproc %v, Schedule %v, Execute %v, ChanOp %v", t.Newproc, t.Schedule, t.Execute, t.ChanOp)
		if p.HasGaps() {
			fmt.Fprintf(&b, ", ScheduleExit %v, ScheduleYield %v", t.ScheduleExit, t.ScheduleYield)
		}
		if p.HasFirstWrite() {
			fmt.Fprintf(&b, ", FirstWrite %v", t.FirstWrite)
		}
		if p.HasFirstPrint() {
			fmt.Fprintf(&b, ", FirstPrint %v", t.FirstPrint)
		}
		if g := t.ParkGrowth; g != (gmp.ParkGrowth{}) {
			fmt.Fprintf(&b, "; a park's switch grows with the work before it (ParkGrowth): %v after none, %v after the probe's %s, %v after 1ms", t.ParkGap(0), t.ParkGap(g.At), dur(float64(g.At)), t.ParkGap(time.Millisecond))
		}
		b.WriteByte('\n')
	} else {
		fmt.Fprintf(&b, "note: a %s profile, without the tracer's figures: verify times the model as every command does; schedlab calibrate measures them\n", FormatV1)
	}
	if m := p.Machine; m.LoadBefore != nil && (*m.LoadBefore >= float64(m.CPUs) || m.LoadAfter != nil && *m.LoadAfter >= float64(m.CPUs)) {
		fmt.Fprintf(&b, "note: the machine was busy (a load average of at least its %d CPUs): the figures include waiting for a CPU; calibrate on a quiet machine for its own costs\n", m.CPUs)
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// Describe says in one line which machine the profile measured, when,
// and how busy it was.
func (p *Profile) Describe() string {
	m := p.Machine
	load := "load unknown"
	if m.LoadBefore != nil && m.LoadAfter != nil {
		load = fmt.Sprintf("load average %.2f before, %.2f after", *m.LoadBefore, *m.LoadAfter)
	}
	return safetext.Term(fmt.Sprintf("measured %s on %s, %d CPUs, %s/%s, %s; %s", p.Measured, m.CPUModel, m.CPUs, m.GOOS, m.GOARCH, m.Go, load))
}

// Elsewhere says how this machine differs from the one the profile
// measured (nothing if it is the same kind): a profile brought from
// another machine times the model as that one.
func (p *Profile) Elsewhere() string {
	here := machine()
	m := p.Machine
	var diffs []string
	if m.GOOS != here.GOOS || m.GOARCH != here.GOARCH {
		diffs = append(diffs, fmt.Sprintf("%s/%s, this one is %s/%s", m.GOOS, m.GOARCH, runtime.GOOS, runtime.GOARCH))
	}
	if m.CPUModel != here.CPUModel {
		diffs = append(diffs, fmt.Sprintf("%s, this one %s", m.CPUModel, here.CPUModel))
	}
	if m.CPUs != here.CPUs {
		diffs = append(diffs, fmt.Sprintf("%d CPUs, this one %d", m.CPUs, here.CPUs))
	}
	if len(diffs) == 0 {
		return ""
	}
	return safetext.Term("the cost profile measured another machine: " + strings.Join(diffs, "; "))
}

// dur writes a figure's nanoseconds as the project's tables write
// durations.
func dur(v float64) string { return table.Duration(time.Duration(math.Round(v))) }
