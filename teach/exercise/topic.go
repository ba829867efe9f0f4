package exercise

import (
	"fmt"
	"strconv"
	"time"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/sim"
)

// Topic is one kind of exercise: how to draw its scenario, and what to ask
// about the run.
type Topic struct {
	Name  string
	Title string
	// scenario draws the YAML of a scenario from r.
	scenario func(r *sim.Rand) string
	// ask returns the questions about the run, or none if this draw gives
	// no unambiguous question (Generate then draws again).
	ask func(x *run, r *sim.Rand) []Question
}

// topics lists every topic, in the order help and list show them. The
// generators live in files named after their group.
var topics = []*Topic{
	topicRunnext, topicOverflow, topicFairness61, topicSteal,
	topicSyscall, topicPreempt, topicTimers, topicNetpoll,
	topicPool, topicSemaphore, topicPrintOrder, topicGosched,
	topicPingPong, topicErrgroup, topicMutex, topicWaitGroup,
}

// Topics returns every topic.
func Topics() []*Topic { return topics }

// TopicNames returns the names of every topic.
func TopicNames() []string {
	out := make([]string, len(topics))
	for i, t := range topics {
		out[i] = t.Name
	}
	return out
}

// Lookup returns the topic of that name, or nil.
func Lookup(name string) *Topic {
	for _, t := range topics {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// between draws a whole number in [lo, hi].
func between(r *sim.Rand, lo, hi int) int { return lo + int(r.Int63n(int64(hi-lo+1))) }

// gname is a goroutine as the describer names it.
func gname(g gmp.GID) string { return "G" + strconv.Itoa(int(g)) }

// gnames names the goroutines first..last.
func gnames(first, last gmp.GID) []string {
	var out []string
	for g := first; g <= last; g++ {
		out = append(out, gname(g))
	}
	return out
}

// ints formats whole numbers as choices, leaving out negative ones.
func ints(vs ...int) []string {
	var out []string
	for _, v := range vs {
		if v >= 0 {
			out = append(out, strconv.Itoa(v))
		}
	}
	return out
}

// aboutMs formats a time rounded to the millisecond, as a question about
// "when" is answered: exact times are in the worked answer.
func aboutMs(d time.Duration) string {
	ms := (d + time.Millisecond/2) / time.Millisecond
	if ms == 0 {
		return "under 1ms"
	}
	return fmt.Sprintf("about %dms", ms)
}

// msChoices are whole-millisecond distractors around a correct time, far
// enough apart that rounding cannot make two of them the same answer.
func msChoices(d time.Duration, offsets ...time.Duration) []string {
	var out []string
	for _, o := range offsets {
		if v := d + o; v >= 0 {
			out = append(out, aboutMs(v))
		}
	}
	return out
}
