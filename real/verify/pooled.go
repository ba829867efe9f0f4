package verify

import (
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/core/scenarios"
)

// Series recorded at different times, judged as one sample. A series of
// ten runs of one scenario takes a few seconds, and in those seconds a
// shared virtual machine is in one state: its CPUs at one pace, its
// other guests at one load. Two such series of the same programs, taken
// minutes apart on the project's Xeon, differed on 3 to 9 of verify
// --all's observables after the correction for many tests, and taken
// five or six hours apart on 20 and 25, so a model judged against one
// series is judged as much against that moment as against the runtime.
// Pooled from three series of one afternoon, the runtime differed from
// three others of it on 2 to 5 (docs/fidelity.md, "Series pooled across
// the day"): the pooled runs are a sample of what the machine did over
// the afternoon, not for a few seconds. The evening's and the night's,
// pooled, still differed from the afternoon's on 18: pooling averages
// the moments of a period, not the periods. --real-from and
// --control-from take several folders for this, their runs in the order
// the folders are given.

// maxPooledFolders is the most folders one judgement reads: each may
// hold a recording as large as any (maxRecordingBytes), read one at a
// time, and the runs pooled are bounded as one recording's are.
const maxPooledFolders = 100

// pooled is one scenario's recordings read from several folders.
type pooled struct {
	// runs are every recording's runs, in the folders' order.
	runs []Observables
	// paths are the recordings read, counts how many runs each had.
	paths  []string
	counts []int
	// goVersion is the toolchain that built every program.
	goVersion string
	// before and after are the load averages the recordings give,
	// before each series and after it.
	before, after []string
	// notes say which recordings were made by programs that did not
	// mark the scenario's end (unmarkedNote), or measured by older rules
	// (oldRulesNote).
	notes []string
}

// readPooled reads sc's recordings, on procs Ps, traced or not as sc's
// runs are, from each of dirs. It refuses a folder given twice, series
// built by different toolchains, and more runs or lines of output in all
// than one recording may hold.
func readPooled(dirs []string, sc *scenarios.Scenario, procs int, untraced bool) (*pooled, error) {
	if len(dirs) > maxPooledFolders {
		return nil, &RecordingError{fmt.Errorf("%d folders of recordings: at most %d", len(dirs), maxPooledFolders)}
	}
	p := &pooled{}
	seen := map[string]string{}
	lines := 0
	for _, dir := range dirs {
		clean := filepath.Clean(dir)
		if first, ok := seen[clean]; ok {
			return nil, &RecordingError{fmt.Errorf("%s is given twice (as %s and %s): its runs would count twice", clean, first, dir)}
		}
		seen[clean] = dir
		rec, err := readSeries(dir, sc, procs, untraced)
		if err != nil {
			return nil, err
		}
		path := RecordingPath(dir, sc.Name)
		if len(p.paths) > 0 && rec.Go != p.goVersion {
			return nil, &RecordingError{fmt.Errorf("%s was built by %s and %s by %s: series of two toolchains are not one sample", p.paths[0], p.goVersion, path, rec.Go)}
		}
		if len(p.runs)+len(rec.Runs) > maxRecordedRuns {
			return nil, &RecordingError{fmt.Errorf("%s: more than %d runs in all with the recordings before it", path, maxRecordedRuns)}
		}
		for _, o := range rec.Runs {
			lines += len(o.Output)
		}
		if lines > maxRecordedLines {
			return nil, &RecordingError{fmt.Errorf("%s: more than %d lines of output in all with the recordings before it", path, maxRecordedLines)}
		}
		p.goVersion = rec.Go
		p.runs = append(p.runs, rec.Runs...)
		p.paths = append(p.paths, path)
		p.counts = append(p.counts, len(rec.Runs))
		p.before = append(p.before, rec.LoadBefore)
		p.after = append(p.after, rec.LoadAfter)
		if !untraced && !rec.EndMarked {
			p.notes = append(p.notes, unmarkedNote(path))
		}
		if !untraced && rec.Rules < measureRules {
			p.notes = append(p.notes, oldRulesNote(path))
		}
	}
	return p, nil
}

// from names the recordings as the report does: one path, or each path
// with how many runs it had.
func (p *pooled) from() string {
	if len(p.paths) == 1 {
		return p.paths[0]
	}
	parts := make([]string, len(p.paths))
	for i, path := range p.paths {
		parts[i] = fmt.Sprintf("%s (%d)", path, p.counts[i])
	}
	return strings.Join(parts, ", ")
}

// load says how busy the machine was around the recordings: as
// DescribeLoad for one, else the range of the load averages before and
// after the series.
func (p *pooled) load() string {
	if len(p.paths) == 1 {
		return DescribeLoad(p.before[0], p.after[0])
	}
	lo, hi, known := 0.0, 0.0, 0
	for _, s := range append(append([]string(nil), p.before...), p.after...) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || !(v >= 0) || math.IsInf(v, 1) {
			continue // "unknown", or text no load average is
		}
		if known == 0 || v < lo {
			lo = v
		}
		if known == 0 || v > hi {
			hi = v
		}
		known++
	}
	if known == 0 {
		return fmt.Sprintf("load average unknown around the %d series, on %d CPUs", len(p.paths), runtime.NumCPU())
	}
	return fmt.Sprintf("load average %s–%s before and after the %d series, on %d CPUs", strconv.FormatFloat(lo, 'f', 2, 64), strconv.FormatFloat(hi, 'f', 2, 64), len(p.paths), runtime.NumCPU())
}
