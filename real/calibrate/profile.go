package calibrate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/internal/jsonfile"
	"github.com/schedlab/schedlab/internal/safetext"
)

// Format names the profile's layout; a profile of another format is
// refused rather than half read. A later layout (the CPU count and load a
// model of the machine's CPUs would take from machine:) gets a new name.
// Format 2 added the figures of tracedRows, format 3 those of gapRows,
// format 4 those of writeRows, format 5 wake_after_idle (idlewake.go),
// format 6 those of wakeCallRows, format 7 those of firstWriteRows,
// format 8 those of netpollWakeRows, format 9 those of mutexSpinRows,
// format 10 those of firstPrintRows, format 11 those of longSleepRows,
// format 12 wake_pack (wakepack.go), format 13 those of busySleepRows; a
// profile of an older format, which lacks them, is still read, its costs
// as before.
const (
	Format    = "schedlab-costs/13"
	FormatV12 = "schedlab-costs/12"
	FormatV11 = "schedlab-costs/11"
	FormatV10 = "schedlab-costs/10"
	FormatV9  = "schedlab-costs/9"
	FormatV8  = "schedlab-costs/8"
	FormatV7  = "schedlab-costs/7"
	FormatV6  = "schedlab-costs/6"
	FormatV5  = "schedlab-costs/5"
	FormatV4  = "schedlab-costs/4"
	FormatV3  = "schedlab-costs/3"
	FormatV2  = "schedlab-costs/2"
	FormatV1  = "schedlab-costs/1"
)

// formats are the layouts a profile may have, the newest first.
var formats = []string{Format, FormatV12, FormatV11, FormatV10, FormatV9, FormatV8, FormatV7, FormatV6, FormatV5, FormatV4, FormatV3, FormatV2, FormatV1}

// Profile is one machine's measured costs, as schedlab calibrate writes
// them and --costs reads them.
type Profile struct {
	Format string `json:"format"`
	// Measured is when, in RFC 3339.
	Measured string  `json:"measured"`
	Machine  Machine `json:"machine"`
	Figures  Figures `json:"figures"`
}

// Machine says which machine was measured, and how busy it was.
type Machine struct {
	GOOS   string `json:"goos"`
	GOARCH string `json:"goarch"`
	// CPUModel is /proc/cpuinfo's model name ("unknown" without one).
	CPUModel string `json:"cpu_model"`
	// CPUs is how many CPUs the process could use (nproc).
	CPUs int `json:"cpus"`
	// Go is the runtime that measured: schedlab's own.
	Go string `json:"go"`
	// LoadBefore and LoadAfter are the one-minute load average before and
	// after the measurements, absent where the system has none.
	LoadBefore *float64 `json:"load_before,omitempty"`
	LoadAfter  *float64 `json:"load_after,omitempty"`
}

// Figures are the measurements; doc.go says how each is taken and which
// of the model's costs it sets.
type Figures struct {
	FutexWake      Figure     `json:"futex_wake"`
	ContextSwitch  Figure     `json:"context_switch"`
	NanosleepSlack Figure     `json:"nanosleep_slack"`
	SleepSlack     Figure     `json:"sleep_slack"`
	Syscall        Figure     `json:"syscall"`
	TimerSlack     TimerSlack `json:"timer_slack"`
	GoCreate       Figure     `json:"go_create"`
	GoFirstRun     Figure     `json:"go_first_run"`
	Handoff        Figure     `json:"handoff"`
	CPUWork        Rate       `json:"cpu_work"`
	// Since format 2 (tracedRows); absent from a profile of format 1.
	GoCreateFresh  *Figure `json:"go_create_fresh,omitempty"`
	TracedGoCreate *Figure `json:"traced_go_create,omitempty"`
	TracedHandoff  *Figure `json:"traced_handoff,omitempty"`
	// Since format 3 (gapRows); absent from profiles of formats 1 and 2.
	TracedParkGap  *Figure `json:"traced_park_gap,omitempty"`
	TracedExitGap  *Figure `json:"traced_exit_gap,omitempty"`
	TracedYieldGap *Figure `json:"traced_yield_gap,omitempty"`
	// Since format 4 (writeRows); absent from profiles of formats 1 to 3.
	PipeWrite *Figure `json:"pipe_write,omitempty"`
	// Since format 5; absent from profiles of formats 1 to 4.
	WakeAfterIdle *IdleWakeFigure `json:"wake_after_idle,omitempty"`
	// Since format 6 (wakeCallRows); absent from profiles of formats 1 to
	// 5.
	WakeCall *Figure `json:"wake_call,omitempty"`
	// Since format 7 (firstWriteRows); absent from profiles of formats 1
	// to 6.
	FirstWrite       *Figure `json:"first_write,omitempty"`
	TracedFirstWrite *Figure `json:"traced_first_write,omitempty"`
	// Since format 8 (netpollWakeRows); absent from profiles of formats 1
	// to 7.
	NetpollWake *Figure `json:"netpoll_wake,omitempty"`
	// Since format 9 (mutexSpinRows); absent from profiles of formats 1
	// to 8.
	MutexSpin *Figure `json:"mutex_spin,omitempty"`
	// Since format 10 (firstPrintRows); absent from profiles of formats 1
	// to 9.
	FirstPrint       *Figure `json:"first_print,omitempty"`
	TracedFirstPrint *Figure `json:"traced_first_print,omitempty"`
	// Since format 11 (longSleepRows); absent from profiles of formats 1
	// to 10.
	NanosleepSlackLong *Figure `json:"nanosleep_slack_long,omitempty"`
	// Since format 12; absent from profiles of formats 1 to 11.
	WakePack *WakePackFigure `json:"wake_pack,omitempty"`
	// Since format 13 (busySleepRows); absent from profiles of formats 1
	// to 12.
	NanosleepSlackLongBusy *Figure `json:"nanosleep_slack_long_busy,omitempty"`
}

// orZero is f, or the zero Figure where a profile has none.
func orZero(f *Figure) Figure {
	if f == nil {
		return Figure{}
	}
	return *f
}

// HasTraced says whether the profile has format 2's figures: a fresh
// goroutine's cost and the tracer's.
func (p *Profile) HasTraced() bool { return p.Format != FormatV1 }

// HasGaps says whether the profile has format 3's figures: the idle P a
// trace shows between a goroutine's stop and the next start.
func (p *Profile) HasGaps() bool {
	return p.HasWrite() || p.Format == FormatV3
}

// HasWrite says whether the profile has format 4's figure: a printed
// line's write to a pipe.
func (p *Profile) HasWrite() bool { return p.HasIdleWake() || p.Format == FormatV4 }

// HasIdleWake says whether the profile has format 5's figure: a thread's
// wake-up after the program has been idle.
func (p *Profile) HasIdleWake() bool { return p.HasWakeCall() || p.Format == FormatV5 }

// HasWakeCall says whether the profile has format 6's figure: what a
// wake-up of a parked thread costs the thread that makes it.
func (p *Profile) HasWakeCall() bool { return p.HasFirstWrite() || p.Format == FormatV6 }

// HasFirstWrite says whether the profile has format 7's figures: what a
// program's first write costs more than its later ones.
func (p *Profile) HasFirstWrite() bool { return p.HasNetpollWake() || p.Format == FormatV7 }

// HasNetpollWake says whether the profile has format 8's figure: how long
// the network poller takes to return a ready read's goroutine.
func (p *Profile) HasNetpollWake() bool { return p.HasMutexSpin() || p.Format == FormatV8 }

// HasMutexSpin says whether the profile has format 9's figure: a round of
// a goroutine spinning on a held sync.Mutex.
func (p *Profile) HasMutexSpin() bool { return p.HasFirstPrint() || p.Format == FormatV9 }

// HasFirstPrint says whether the profile has format 10's figures: what a
// program's first fmt.Println takes more than its later ones before it
// writes.
func (p *Profile) HasFirstPrint() bool { return p.HasLongSleep() || p.Format == FormatV10 }

// HasLongSleep says whether the profile has format 11's figure: how late
// a 10ms nanosleep comes back, which on some machines is later than a
// short one.
func (p *Profile) HasLongSleep() bool { return p.HasWakePack() || p.Format == FormatV11 }

// HasWakePack says whether the profile has format 12's figure: how often
// the kernel puts a woken thread beside its waker on a busy CPU.
func (p *Profile) HasWakePack() bool { return p.HasBusySleep() || p.Format == FormatV12 }

// HasBusySleep says whether the profile has format 13's figure: how late
// a 10ms nanosleep comes back while another thread computes.
func (p *Profile) HasBusySleep() bool { return p.Format == Format }

// Figure is a duration measured many times, in nanoseconds: the median
// and the spread around it.
type Figure struct {
	Samples int     `json:"samples"`
	Median  float64 `json:"median_ns"`
	P10     float64 `json:"p10_ns"`
	P90     float64 `json:"p90_ns"`
	Min     float64 `json:"min_ns"`
	Max     float64 `json:"max_ns"`
}

// Rate is a speed measured many times, in loop iterations per
// microsecond.
type Rate struct {
	Samples int     `json:"samples"`
	Median  float64 `json:"median_per_us"`
	P10     float64 `json:"p10_per_us"`
	P90     float64 `json:"p90_per_us"`
	Min     float64 `json:"min_per_us"`
	Max     float64 `json:"max_per_us"`
}

// TimerSlack is the kernel's timer slack for the measuring thread, in
// nanoseconds, read from /proc ("procfs") or, where that cannot be read,
// estimated from the nanosleep overshoot ("measured").
type TimerSlack struct {
	NS     float64 `json:"ns"`
	Source string  `json:"source"`
}

// The bounds a profile's figures must keep. A cost above MaxCost is no
// cost of these kinds but a broken file, or a machine that cannot run the
// model's scenarios anyway; MaxRate is far above any CPU's speed.
const (
	MaxCost    = float64(time.Second)
	MaxRate    = 1e6
	MaxSamples = 10_000_000
	MaxCPUs    = 1 << 16
	// MaxLoad bounds a load average: a thousand runnable threads per CPU
	// of the largest machine.
	MaxLoad = 1000 * MaxCPUs
	// MaxFileSize bounds what Read reads: a profile is a few hundred
	// bytes.
	MaxFileSize = 1 << 20
	// maxText bounds a machine's names.
	maxText = 200
)

// Read reads and validates the profile in path.
func Read(path string) (*Profile, error) {
	data, err := jsonfile.ReadFile(path, MaxFileSize)
	if err != nil {
		return nil, fmt.Errorf("cost profile: %w", err)
	}
	return Parse(path, data)
}

// Parse reads a profile from data, which came from file (named in the
// errors). Every field must be there and within its bounds: a profile
// is shared like a scenario, and what it says times every run.
func Parse(file string, data []byte) (*Profile, error) {
	if len(data) > MaxFileSize {
		return nil, &gmp.Error{Pos: gmp.Pos{File: file, Line: 1, Col: 1}, Msg: fmt.Sprintf("a cost profile is a few hundred bytes; this one is over %d", MaxFileSize)}
	}
	var p Profile
	if err := jsonfile.Decode(file, data, &p, profileKind); err != nil {
		return nil, err
	}
	// Decode took the profile; the walk places each field for the
	// validator, and refuses a member given twice, which Decode takes.
	pos, err := fieldPositions(data)
	if err != nil {
		return nil, placeWalkError(file, data, err)
	}
	v := validator{file: file, data: data, pos: pos}
	v.profile(&p)
	if len(v.errs) > 0 {
		return nil, errors.Join(v.errs...)
	}
	return &p, nil
}

// Validate checks a profile built in memory (Measure's) as Parse checks
// a file's.
func (p *Profile) Validate() error {
	v := validator{file: "profile"}
	v.profile(p)
	return errors.Join(v.errs...)
}

// Write writes p to path as indented JSON, through a temporary file in
// the same folder so that a reader never sees half a profile, creating
// the folder if it is missing.
func (p *Profile) Write(path string) error {
	if err := p.Validate(); err != nil {
		return err
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".costs-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// DefaultPath is where calibrate writes and verify looks: costs.json in
// schedlab's folder of the user's configuration directory
// (~/.config/schedlab on Linux).
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "schedlab", "costs.json"), nil
}

// validator collects a profile's mistakes, each at its field's place in
// the file when the file is known.
type validator struct {
	file string
	data []byte
	pos  map[string]int64
	errs []error
}

func (v *validator) fail(field, msg string) {
	if v.data == nil {
		v.errs = append(v.errs, fmt.Errorf("%s: %s: %s", v.file, field, msg))
		return
	}
	off, ok := v.pos[field]
	if !ok {
		// A field that is not in the file is missing: the place to put
		// it is its object, or the top.
		off = v.parentOffset(field)
	}
	v.errs = append(v.errs, &gmp.Error{Pos: jsonfile.PosAt(v.file, v.data, off), Msg: field + ": " + msg})
}

func (v *validator) parentOffset(field string) int64 {
	for f := field; ; {
		i := strings.LastIndexByte(f, '.')
		if i < 0 {
			return 0
		}
		f = f[:i]
		if off, ok := v.pos[f]; ok {
			return off
		}
	}
}

func (v *validator) present(field string) bool {
	if v.pos == nil {
		return true // built in memory: zero values are judged as values
	}
	if _, ok := v.pos[field]; ok {
		return true
	}
	v.fail(field, "missing (schedlab calibrate writes every field)")
	return false
}

func (v *validator) profile(p *Profile) {
	if v.present("format") && !slices.Contains(formats, p.Format) {
		older := make([]string, len(formats)-1)
		for i, f := range formats[1:] {
			older[i] = strconv.Quote(f)
		}
		last := len(older) - 1
		v.fail("format", fmt.Sprintf("want %q (or the older %s or %s), got %q: this schedlab reads only those layouts (schedlab calibrate writes the first)",
			Format, strings.Join(older[:last], ", "), older[last], quote(p.Format)))
		return
	}
	if v.present("measured") {
		if _, err := time.Parse(time.RFC3339, p.Measured); err != nil || len(p.Measured) > 64 {
			v.fail("measured", fmt.Sprintf("want a time such as 2026-01-02T15:04:05Z, got %q", quote(p.Measured)))
		}
	}
	if v.present("machine") {
		m := p.Machine
		v.name("machine.goos", m.GOOS, true)
		v.name("machine.goarch", m.GOARCH, true)
		v.name("machine.cpu_model", m.CPUModel, false)
		v.name("machine.go", m.Go, false)
		if v.present("machine.cpus") && (m.CPUs < 1 || m.CPUs > MaxCPUs) {
			v.fail("machine.cpus", fmt.Sprintf("want 1 to %d CPUs, got %d", MaxCPUs, m.CPUs))
		}
		v.load("machine.load_before", m.LoadBefore)
		v.load("machine.load_after", m.LoadAfter)
	}
	if !v.present("figures") {
		return
	}
	f := p.Figures
	rows := p.rows()
	for _, later := range p.laterRows() {
		if later.has {
			continue
		}
		for _, r := range later.rows {
			if _, ok := v.pos["figures."+r.name]; ok {
				v.fail("figures."+r.name, fmt.Sprintf("a %s profile has no such figure (%s has)", p.Format, Format))
			}
		}
	}
	for _, r := range rows {
		name := "figures." + r.name
		if v.present(name) {
			fig := r.get(&f)
			v.spread(name, "_ns", fig.Samples, [5]float64{fig.Min, fig.P10, fig.Median, fig.P90, fig.Max}, MaxCost, "ns (1s)")
		}
	}
	if v.present("figures.cpu_work") {
		r := f.CPUWork
		v.spread("figures.cpu_work", "_per_us", r.Samples, [5]float64{r.Min, r.P10, r.Median, r.P90, r.Max}, MaxRate, "iterations per µs")
	}
	v.laterFigure(p, p.HasIdleWake(), "figures.wake_after_idle", f.WakeAfterIdle == nil, func(name string) { f.WakeAfterIdle.validate(v, name) })
	v.laterFigure(p, p.HasWakePack(), "figures.wake_pack", f.WakePack == nil, func(name string) { f.WakePack.validate(v, name) })
	if v.present("figures.timer_slack") {
		ts := f.TimerSlack
		if v.present("figures.timer_slack.ns") && !(ts.NS >= 1 && ts.NS <= MaxCost) {
			v.fail("figures.timer_slack.ns", fmt.Sprintf("want 1 to %.0f ns, got %v", MaxCost, ts.NS))
		}
		if v.present("figures.timer_slack.source") && ts.Source != "procfs" && ts.Source != "measured" {
			v.fail("figures.timer_slack.source", fmt.Sprintf("want procfs or measured, got %q", quote(ts.Source)))
		}
	}
}

// laterFigure checks a figure of its own shape that a later format
// added, name: present, an object, and valid by validate where the
// profile's format has it (has), absent where it does not.
func (v *validator) laterFigure(p *Profile, has bool, name string, null bool, validate func(name string)) {
	if !has {
		if _, ok := v.pos[name]; ok {
			v.fail(name, fmt.Sprintf("a %s profile has no such figure (%s has)", p.Format, Format))
		}
		return
	}
	switch {
	case !v.present(name):
	case null:
		v.fail(name, "want an object, got null")
	default:
		validate(name)
	}
}

// spread checks a measured figure: its count of samples, each statistic
// present, positive and at most top, and the statistics in order.
func (v *validator) spread(name, unit string, samples int, stats [5]float64, top float64, topText string) {
	if v.present(name+".samples") && (samples < 1 || samples > MaxSamples) {
		v.fail(name+".samples", fmt.Sprintf("want 1 to %d samples, got %d", MaxSamples, samples))
	}
	v.statistics(name, "", unit, stats, top, topText)
}

// statNames are a figure's statistics, in the order they must keep.
var statNames = [5]string{"min", "p10", "median", "p90", "max"}

// statistics checks the five statistics of a figure, the fields
// name.PREFIXmin_UNIT to name.PREFIXmax_UNIT: each present, positive and
// at most top, and in order.
func (v *validator) statistics(name, prefix, unit string, stats [5]float64, top float64, topText string) {
	ok := true
	for i, s := range stats {
		field := name + "." + prefix + statNames[i] + unit
		if !v.present(field) {
			ok = false
			continue
		}
		if !(s > 0 && s <= top) {
			v.fail(field, fmt.Sprintf("want a positive figure up to %v %s, got %v", top, topText, s))
			ok = false
		}
	}
	if !ok {
		return
	}
	for i := 1; i < len(stats); i++ {
		if stats[i] < stats[i-1] {
			v.fail(name+"."+prefix+statNames[i]+unit, fmt.Sprintf("%v is below %s %v: want min ≤ p10 ≤ median ≤ p90 ≤ max", stats[i], statNames[i-1], stats[i-1]))
			return
		}
	}
}

func (v *validator) load(field string, l *float64) {
	if l != nil && !(*l >= 0 && *l <= MaxLoad) {
		v.fail(field, fmt.Sprintf("want a load average from 0 to %d, got %v", MaxLoad, *l))
	}
}

// name checks a machine's name: printable, short, and for GOOS and
// GOARCH the lower-case letters and digits Go uses.
func (v *validator) name(field, s string, goName bool) {
	if !v.present(field) {
		return
	}
	switch {
	case s == "":
		v.fail(field, "empty")
	case utf8.RuneCountInString(s) > maxText:
		v.fail(field, fmt.Sprintf("longer than %d characters", maxText))
	case strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0:
		v.fail(field, fmt.Sprintf("has a character that is not printable: %q", quote(s)))
	case goName && strings.IndexFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }) >= 0:
		v.fail(field, fmt.Sprintf("want lower-case letters and digits as in GOOS and GOARCH, got %q", quote(s)))
	}
}

// fieldPositions walks the JSON in data and returns the offset of each
// object member's value by its dotted path (machine.cpus), so that an
// error can name the line and column of the field it is about. It also
// refuses what the decoder would take silently: a member given twice.
func fieldPositions(data []byte) (map[string]int64, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	pos := map[string]int64{}
	var walk func(path string, depth int) error
	walk = func(path string, depth int) error {
		if depth > 8 {
			return &json.SyntaxError{Offset: dec.InputOffset()}
		}
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				key, err := dec.Token()
				if err != nil {
					return err
				}
				name := key.(string)
				if path != "" {
					name = path + "." + name
				}
				if _, dup := pos[name]; dup {
					return duplicateError{name, dec.InputOffset()}
				}
				// The value starts after the colon: the offset after
				// the key, past spaces and the colon, is close enough
				// for a line and column, and exact in a file calibrate
				// wrote.
				pos[name] = valueOffset(data, dec.InputOffset())
				if err := walk(name, depth+1); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		case json.Delim('['):
			// Each element by its index, as the validator names it
			// (figures.wake_after_idle.points[1].late).
			for i := 0; dec.More(); i++ {
				elem := fmt.Sprintf("%s[%d]", path, i)
				pos[elem] = valueOffset(data, dec.InputOffset())
				if err := walk(elem, depth+1); err != nil {
					return err
				}
			}
			_, err = dec.Token()
			return err
		}
		return nil
	}
	if err := walk("", 0); err != nil {
		return nil, err
	}
	return pos, nil
}

func valueOffset(data []byte, off int64) int64 {
	for off < int64(len(data)) && (data[off] == ' ' || data[off] == '\t' || data[off] == '\n' || data[off] == '\r' || data[off] == ':' || data[off] == ',') {
		off++
	}
	return off
}

type duplicateError struct {
	field  string
	offset int64
}

func (e duplicateError) Error() string { return e.field + ": given twice" }

// quote clips a file's text to quote it in a message.
func quote(s string) string { return safetext.Clip(s, 40) }

// profileKind is how jsonfile names a profile in its messages.
var profileKind = jsonfile.Kind{Noun: "profile", Unknown: "a typo, or a profile of another layout than " + Format}

// placeWalkError places an error of fieldPositions' walk: a member given
// twice where it is, else as jsonfile places the decoder's errors.
func placeWalkError(file string, data []byte, err error) error {
	var dup duplicateError
	if errors.As(err, &dup) {
		return &gmp.Error{Pos: jsonfile.PosAt(file, data, dup.offset), Msg: dup.Error()}
	}
	return jsonfile.Error(file, data, err, profileKind)
}

// finite says whether every statistic is a number: Measure's figures,
// before they are written.
func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
