package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/taskmode"
	"github.com/schedlab/schedlab/internal/safetext"
	"github.com/schedlab/schedlab/internal/table"
)

// Report is a comparison: the workload, how it ran, and each mode's
// figures.
type Report struct {
	Scenario string
	Title    string
	Procs    int
	Seed     uint64
	// Policies is set when the columns are what-if policies over the
	// scenario as written, not modes of its tasks.
	Policies bool
	Results  []*Result
}

// pooled reports whether r ran pool tasks: the pool mode, or a policy
// run of a scenario that submits.
func pooled(r *Result) bool {
	return r.Mode == taskmode.Pool && r.Pool.Submitted+r.Pool.Rejected > 0
}

// rows are the figures of the text table.
var rows = []table.Row[*Result]{
	{Label: "tasks started", Cell: func(r *Result) string {
		if !r.HasTasks {
			return "-"
		}
		return strconv.Itoa(r.TasksStarted)
	}},
	{Label: "makespan", Cell: func(r *Result) string { return table.Duration(r.Makespan) }},
	{Label: "goroutines created", Cell: func(r *Result) string { return strconv.Itoa(r.Goroutines) }},
	{Label: "peak live goroutines", Cell: func(r *Result) string { return strconv.Itoa(r.PeakLive) }},
	{Label: "stack memory (2 KiB/G)", Cell: func(r *Result) string { return table.Bytes(uint64(r.StackBytes)) }},
	{Label: "peak local queue", Cell: func(r *Result) string { return strconv.Itoa(r.PeakLocal) }},
	{Label: "peak global queue", Cell: func(r *Result) string { return strconv.Itoa(r.PeakGlobal) }},
	{Label: "steals (Gs stolen)", Cell: func(r *Result) string { return fmt.Sprintf("%d (%d)", r.Steals, r.Stolen) }},
	{Label: "preemptions", Cell: func(r *Result) string { return strconv.Itoa(r.Preemptions) }},
	{Label: "sched latency p50", Cell: func(r *Result) string { return atLeast(r.LatencyP50, r.P50AtLeast) }},
	{Label: "sched latency p99", Cell: func(r *Result) string { return atLeast(r.LatencyP99, r.P99AtLeast) }},
	{Label: "longest wait to run", Cell: func(r *Result) string { return atLeast(r.LongestWait, r.LongestAtLeast) }},
	{Label: "waits open at the end", Cell: func(r *Result) string { return strconv.Itoa(r.OpenWaits) }},
	{Label: "goroutines never run", Cell: func(r *Result) string { return strconv.Itoa(r.NeverRan) }},
	{Label: "P idle while Gs wait", Cell: func(r *Result) string { return table.Duration(r.IdleWhileRunnable) }},
	{Label: "worker reuse", Cell: func(r *Result) string {
		if !pooled(r) {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*r.ReuseRatio())
	}},
	{Label: "workers purged", Cell: func(r *Result) string {
		if !pooled(r) {
			return "-"
		}
		return strconv.Itoa(r.Pool.WorkersPurged)
	}},
	{Label: "tasks rejected", Cell: func(r *Result) string {
		if !pooled(r) {
			return "-"
		}
		return strconv.Itoa(r.Pool.Rejected)
	}},
	{Label: "ended", Cell: func(r *Result) string { return r.End.Reason.String() }},
}

// WriteText writes the report as a table, a column per mode.
func (rep *Report) WriteText(w io.Writer) error {
	title := safetext.Term(rep.Scenario)
	if rep.Title != "" {
		title += " — " + safetext.Term(rep.Title)
	}
	what := ""
	if rep.Policies {
		what = " · what-if policies"
	}
	fmt.Fprintf(w, "%s · procs %d · seed %d%s\n\n", title, rep.Procs, rep.Seed, what)
	if err := table.Write(w, rep.Results, func(r *Result) string { return r.Label }, rep.rows()); err != nil {
		return err
	}
	if note := rep.unequalWork(); note != "" {
		fmt.Fprintf(w, "\n%s\n", note)
	}
	if note := rep.censored(); note != "" {
		fmt.Fprintf(w, "\n%s\n", note)
	}
	for _, r := range rep.Results {
		if r.End.Err != nil {
			fmt.Fprintf(w, "\n%s: %s\n", r.Label, safetext.TermLines(r.End.Err.Error()))
		}
	}
	return nil
}

// unequalWork warns when the columns did different amounts of work (a
// nonblocking pool that rejects tasks, a run that stopped early), so
// their times are not like for like.
func (rep *Report) unequalWork() string {
	if len(rep.Results) == 0 {
		return ""
	}
	var parts []string
	same := true
	for _, r := range rep.Results {
		parts = append(parts, fmt.Sprintf("%s %d", r.Label, r.TasksStarted))
		same = same && r.TasksStarted == rep.Results[0].TasksStarted
	}
	if same {
		return ""
	}
	return "not like for like: the columns started different numbers of tasks (" + strings.Join(parts, ", ") +
		"), so compare their times with care"
}

// atLeast writes a duration, "≥ " before it when it is a lower bound.
func atLeast(d time.Duration, open bool) string {
	if open {
		return "≥ " + table.Duration(d)
	}
	return table.Duration(d)
}

// censored says what ≥ means, when a column has waits still open at the
// end.
func (rep *Report) censored() string {
	for _, r := range rep.Results {
		if r.OpenWaits > 0 {
			return "≥: goroutines were still waiting to run when the run ended, so their waits are censored:\n" +
				"they count as the time waited until the end, and the true figure is at least that"
		}
	}
	return ""
}

// rows are the table's rows, leaving out those that apply to no column
// (the pool's, for policies over a scenario without one).
func (rep *Report) rows() []table.Row[*Result] {
	var out []table.Row[*Result]
	for _, row := range rows {
		for _, r := range rep.Results {
			if row.Cell(r) != "-" {
				out = append(out, row)
				break
			}
		}
	}
	return out
}

// jsonResult is a result as --format json writes it: durations in
// nanoseconds, names in snake case, so scripts need no parsing.
type jsonResult struct {
	Mode          string  `json:"mode,omitempty"`
	Policy        string  `json:"policy,omitempty"`
	Ended         string  `json:"ended"`
	TasksStarted  int     `json:"tasks_started"`
	Error         string  `json:"error,omitempty"`
	MakespanNS    int64   `json:"makespan_ns"`
	Events        int     `json:"events"`
	Goroutines    int     `json:"goroutines"`
	PeakLive      int     `json:"peak_live"`
	StackBytes    int     `json:"stack_bytes"`
	PeakLocal     int     `json:"peak_local_queue"`
	PeakGlobal    int     `json:"peak_global_queue"`
	Steals        int     `json:"steals"`
	Stolen        int     `json:"stolen"`
	Preemptions   int     `json:"preemptions"`
	Starts        int     `json:"starts"`
	LatencyP50NS  int64   `json:"latency_p50_ns"`
	LatencyP99NS  int64   `json:"latency_p99_ns"`
	LongestWaitNS int64   `json:"longest_wait_ns"`
	IdleWaitingNS int64   `json:"idle_while_runnable_ns"`
	Submitted     int     `json:"submitted,omitempty"`
	Rejected      int     `json:"rejected,omitempty"`
	WorkersStart  int     `json:"workers_started,omitempty"`
	WorkersReused int     `json:"workers_reused,omitempty"`
	WorkersPurged int     `json:"workers_purged,omitempty"`
	ReuseRatio    float64 `json:"reuse_ratio,omitempty"`

	// The _at_least flags say the figure is a lower bound: waits still
	// open at the end (open_waits) count as the time until the end.
	P50AtLeast     bool `json:"latency_p50_at_least,omitempty"`
	P99AtLeast     bool `json:"latency_p99_at_least,omitempty"`
	LongestAtLeast bool `json:"longest_wait_at_least,omitempty"`
	OpenWaits      int  `json:"open_waits"`
	NeverRan       int  `json:"never_ran"`
}

// WriteJSON writes the report as one JSON object.
func (rep *Report) WriteJSON(w io.Writer) error {
	out := struct {
		Scenario string       `json:"scenario"`
		Title    string       `json:"title,omitempty"`
		Procs    int          `json:"procs"`
		Seed     uint64       `json:"seed"`
		Modes    []jsonResult `json:"modes,omitempty"`
		Policies []jsonResult `json:"policies,omitempty"`
		Warning  string       `json:"warning,omitempty"`
	}{Scenario: rep.Scenario, Title: rep.Title, Procs: rep.Procs, Seed: rep.Seed, Warning: rep.unequalWork()}
	for _, r := range rep.Results {
		j := jsonResult{
			TasksStarted: r.TasksStarted,
			Ended:        r.End.Reason.String(), MakespanNS: int64(r.Makespan), Events: r.Events,
			Goroutines: r.Goroutines, PeakLive: r.PeakLive, StackBytes: r.StackBytes,
			PeakLocal: r.PeakLocal, PeakGlobal: r.PeakGlobal, Steals: r.Steals, Stolen: r.Stolen,
			Preemptions: r.Preemptions, Starts: r.Starts,
			LatencyP50NS: int64(r.LatencyP50), LatencyP99NS: int64(r.LatencyP99),
			LongestWaitNS: int64(r.LongestWait), IdleWaitingNS: int64(r.IdleWhileRunnable),
			P50AtLeast: r.P50AtLeast, P99AtLeast: r.P99AtLeast, LongestAtLeast: r.LongestAtLeast,
			OpenWaits: r.OpenWaits, NeverRan: r.NeverRan,
		}
		if r.End.Err != nil {
			j.Error = r.End.Err.Error()
		}
		if pooled(r) {
			j.Submitted, j.Rejected = r.Pool.Submitted, r.Pool.Rejected
			j.WorkersStart, j.WorkersReused, j.WorkersPurged = r.Pool.WorkersStarted, r.Pool.WorkersReused, r.Pool.WorkersPurged
			j.ReuseRatio = r.ReuseRatio()
		}
		if rep.Policies {
			j.Policy = r.Label
			out.Policies = append(out.Policies, j)
		} else {
			j.Mode = r.Label
			out.Modes = append(out.Modes, j)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// Compare runs prog under each mode with cfg, one after the other (each
// run is deterministic, so the report is too).
func Compare(name, title string, prog *gmp.Program, cfg gmp.Config, modes []taskmode.Mode) (*Report, error) {
	rep := &Report{Scenario: name, Title: title, Procs: cfg.Procs, Seed: cfg.Seed}
	for _, mode := range modes {
		r, err := Run(prog, cfg, mode)
		if err != nil {
			return nil, err
		}
		rep.Results = append(rep.Results, r)
	}
	return rep, nil
}

// ComparePolicies runs prog as written under each policy with cfg.
func ComparePolicies(name, title string, prog *gmp.Program, cfg gmp.Config, policies []gmp.Policy) (*Report, error) {
	rep := &Report{Scenario: name, Title: title, Procs: cfg.Procs, Seed: cfg.Seed, Policies: true}
	for _, p := range policies {
		r, err := RunPolicy(prog, cfg, p)
		if err != nil {
			return nil, err
		}
		rep.Results = append(rep.Results, r)
	}
	return rep, nil
}
