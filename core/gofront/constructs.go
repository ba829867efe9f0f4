package gofront

import (
	"fmt"
	"strings"
)

// Status says what the front end does with a construct.
type Status uint8

const (
	// Accepted constructs become scenario actions (or settings).
	Accepted Status = iota
	// NotYet constructs wait for the model: it has no such action today.
	// Each is refused with a message that says so; when the model gains
	// the action, its row turns Accepted and gets a translation.
	NotYet
	// Refused constructs are outside the subset for a reason that the
	// model will not change: they cannot be evaluated before the run, or
	// the model leaves them out on purpose (core/gmp/doc.go).
	Refused
)

func (s Status) String() string {
	switch s {
	case Accepted:
		return "accepted"
	case NotYet:
		return "not modelled yet"
	}
	return "refused"
}

// Construct is one row of the subset: a piece of Go, what it becomes,
// or why it is refused. docs/go-subset.md is this table, and every row
// has a case in testdata/constructs.txtar.
type Construct struct {
	// ID names the row in the code, the tests and the doc.
	ID string
	// Go is how the construct is written.
	Go string
	// Status is what the front end does with it.
	Status Status
	// Becomes is, for an accepted row, what the scenario gets; for a
	// refused one, the message (after "file:line:col: ").
	Becomes string
	// Hint is, for a refused row, what to do instead.
	Hint string
	// Issue is the issue that brings a NotYet construct to the model.
	Issue int
	// API lists the go/types full names of the functions and methods the
	// row covers ("time.Sleep", "(*sync.Mutex).Lock"); a call of one of
	// them is handled by the row.
	API []string
}

// Constructs returns the table, in the order the doc lists it.
func Constructs() []Construct { return constructs }

// lookup returns the row named id; a missing row is a mistake in this
// package, which the tests catch.
func lookup(id string) *Construct {
	for i := range constructs {
		if constructs[i].ID == id {
			return &constructs[i]
		}
	}
	panic("gofront: no construct " + id)
}

// byAPI maps a function's full name to its row.
var byAPI = func() map[string]*Construct {
	m := map[string]*Construct{}
	for i := range constructs {
		for _, name := range constructs[i].API {
			if m[name] != nil {
				panic("gofront: " + name + " is in two rows")
			}
			m[name] = &constructs[i]
		}
	}
	return m
}()

const yamlHint = "write the scenario in YAML (schedlab translate FILE.go gives a start)"

var constructs = []Construct{
	// Goroutines and functions.
	{ID: "go", Go: "go f(x) · go func() {…}()", Becomes: "`go:` with the callee's body inlined; arguments are evaluated at the go statement"},
	{ID: "call", Go: "f(x), calls of the file's own functions and closures", Becomes: "the callee's body, inlined; results it can evaluate are used"},
	{ID: "recursion", Go: "a function that calls itself, directly or not", Status: Refused,
		Becomes: "recursion cannot be inlined", Hint: "write the calls out, or loop instead"},
	{ID: "method", Go: "calls of methods of the file's own types", Status: Refused,
		Becomes: "methods of the file's own types are not read", Hint: "make the method a function that takes the value"},
	{ID: "defer", Go: "defer f(x)", Becomes: "the call's actions at the function's end (arguments evaluated at the defer)"},
	{ID: "return", Go: "return, with results it can evaluate", Becomes: "the end of the inlined function"},
	{ID: "func value", Go: "f := func() {…}; f()", Becomes: "the closure's body, inlined where it is called"},

	// Control flow.
	{ID: "for", Go: "for i := 0; i < N; i++ {…} with N it can evaluate", Becomes: "`loop:` when each iteration does the same, else the iterations one after another"},
	{ID: "range int", Go: "for i := range N {…} · for range N {…}", Becomes: "`loop:` as for"},
	{ID: "range slice", Go: "for i, v := range []int{…} (a slice or array it can evaluate)", Becomes: "`loop:` as for"},
	{ID: "range map", Go: "for k, v := range m", Status: Refused,
		Becomes: "range over a map visits the keys in a random order the front end cannot know", Hint: "range over a slice of the keys"},
	{ID: "loop bound", Go: "a loop whose bound depends on a received value, the clock, …", Status: Refused,
		Becomes: "a loop bound that depends on %s cannot be evaluated", Hint: "give it a constant, or " + yamlHint},
	{ID: "busy loop", Go: "for i := 0; i < N; i++ { x++ } (a body of plain arithmetic)", Becomes: "`cpu:` of N iterations at the cpu rate (see CPU work)"},
	{ID: "statement", Go: "x := y + 1, x++, a[i] = v (plain statements)", Becomes: "`cpu:` of one iteration each (see CPU work)"},
	{ID: "if", Go: "if / else on values it can evaluate", Becomes: "the branch taken; a condition it cannot evaluate is accepted only when neither branch does anything"},
	{ID: "condition", Go: "if / switch on a received value, the clock, …", Status: Refused,
		Becomes: "a condition that depends on %s cannot be evaluated", Hint: "decide it with a constant, or " + yamlHint},
	{ID: "switch", Go: "switch on values it can evaluate, fallthrough", Becomes: "the case taken"},
	{ID: "break", Go: "break, continue (with or without a label)", Becomes: "the loop's iterations written out up to it"},
	{ID: "goto", Go: "goto", Status: Refused, Becomes: "goto is not read", Hint: "use a loop with break"},
	{ID: "type switch", Go: "switch x.(type)", Status: Refused, Becomes: "a type switch is not read", Hint: "call the function for the type directly"},
	{ID: "forever", Go: "for {…} with no break it can reach (for i := 0; ; i++ {…} too)",
		Becomes: "`loop: forever` when the body calls nothing (it has no preemption check: only sysmon's signal stops it), else `loop: {forever: true, do}`; every iteration must do the same, and nothing after the loop runs"},
	{ID: "flag", Go: "for !done {…} on a bool another goroutine sets (done = true) · var done atomic.Bool; for !done.Load() {…}; done.Store(true)",
		Becomes: "a flag: the loop is `loop: {until: done}` (with `do` when its body calls something) and each done = true or done.Store(true) is `set: done`; a plain bool is read as an atomic.Bool (go1.26 keeps its load in the loop)"},
	{ID: "flag misuse", Go: "done = false, done.Store(v) with v not true, a break out of a loop on a flag, a flag nothing sets",
		Status: Refused, Becomes: "%s", Hint: "set a flag only to true, once it is to end the loops that wait for it, or signal with a channel: close(done) and <-done"},
	{ID: "unbounded body", Go: "a loop that never ends, or ends on a flag, whose iterations differ",
		Status: Refused, Becomes: "the iterations of this loop, which %s, differ (%s): the model repeats one body", Hint: "keep what changes out of the loop, or bound it: for range N {…}"},

	// Channels.
	{ID: "make chan", Go: "make(chan T) · make(chan T, N)", Becomes: "a channel under `chans:`, named after its variable"},
	{ID: "send", Go: "ch <- v", Becomes: "`send:`"},
	{ID: "receive", Go: "<-ch · v := <-ch · v, ok := <-ch", Becomes: "`recv:`; the value received is not known"},
	{ID: "close", Go: "close(ch)", Becomes: "`close:`"},
	{ID: "range chan", Go: "for v := range ch {…}, one goroutine receiving", Becomes: "`loop:` of `recv:` and the body, as many times as the program sends on ch, then the `recv:` that finds it closed"},
	{ID: "range chan shared", Go: "for v := range ch in several goroutines, or beside other receives", Status: Refused,
		Becomes: "how the values of channel %s split among its receivers is decided as the program runs", Hint: "give each receiver its own channel, or " + yamlHint},
	{ID: "select", Go: "select {…} of case <-ch, case v := <-ch, case ch <- v, case <-time.After(d), default; select {}",
		Becomes: "`select: {cases, default}` of `recv:`, `send:` and `after:` cases, each with its body in `do:`; what a case's body writes is not known after the select"},
	{ID: "select other", Go: "a select case the front end cannot follow: a channel it cannot evaluate, a receive into a value it keeps, more than 16 cases", Status: Refused,
		Becomes: "%s", Hint: "write each case as case <-ch: or case ch <- v: on a channel the program made, or " + yamlHint},
	{ID: "time.After", Go: "case <-time.After(d) in a select", API: []string{"time.After"},
		Becomes: "the select's `after: d` case; time.After elsewhere is refused", Hint: "use time.Sleep(d), or time.After in a select case"},

	// The runtime and the clock.
	{ID: "time.Sleep", Go: "time.Sleep(d)", Becomes: "`sleep:`", API: []string{"time.Sleep"}},
	{ID: "time.Now", Go: "time.Now(), time.Since(t), d.Seconds(), …", Becomes: "nothing: the value is not known", API: []string{"time.Now", "time.Since", "(time.Time).Sub",
		"(time.Duration).Seconds", "(time.Duration).Milliseconds", "(time.Duration).Microseconds", "(time.Duration).String"}},
	{ID: "timers", Go: "time.Tick, time.NewTimer, time.NewTicker, time.AfterFunc", Status: Refused,
		API:     []string{"time.Tick", "time.NewTimer", "time.NewTicker", "time.AfterFunc", "(*time.Timer).Stop", "(*time.Timer).Reset", "(*time.Ticker).Stop"},
		Becomes: "%s is not modelled", Hint: "use time.Sleep"},
	{ID: "runtime.Gosched", Go: "runtime.Gosched()", Becomes: "`gosched`", API: []string{"runtime.Gosched"}},
	{ID: "runtime.Goexit", Go: "runtime.Goexit()", Becomes: "`exit`; refused while a deferred call with actions is pending", API: []string{"runtime.Goexit"}},
	{ID: "runtime.GOMAXPROCS", Go: "runtime.GOMAXPROCS(n) in main, before anything runs", Becomes: "`procs: n` (without it, procs is 2, or --procs)", API: []string{"runtime.GOMAXPROCS"}},
	{ID: "runtime.NumGoroutine", Go: "runtime.NumGoroutine(), runtime.NumCPU()", Becomes: "nothing: the value is not known", API: []string{"runtime.NumGoroutine", "runtime.NumCPU"}},
	{ID: "runtime other", Go: "runtime.GC, runtime.LockOSThread, runtime.UnlockOSThread", Status: Refused,
		API: []string{"runtime.GC", "runtime.LockOSThread", "runtime.UnlockOSThread"}, Becomes: "%s is left out of the model (core/gmp/doc.go)", Hint: "leave it out"},
	{ID: "os.Exit", Go: "os.Exit(0) in main's goroutine", Becomes: "the end of main: nothing after it runs, deferred calls included", API: []string{"os.Exit"}},
	{ID: "panic", Go: "panic(v) where it is reached", Status: NotYet,
		Becomes: "panic is not modelled yet: the model panics only where the runtime does (a close of a closed channel, a send on one)", Hint: "leave it out, or decide its if with a constant"},

	// sync.
	{ID: "sync.Mutex", Go: "var mu sync.Mutex · mu.Lock(), mu.Unlock() (also through &mu)", API: []string{"(*sync.Mutex).Lock", "(*sync.Mutex).Unlock"},
		Becomes: "a mutex under `mutexes:`, and `lock: mu`, `unlock: mu`"},
	{ID: "sync.RWMutex", Go: "var rw sync.RWMutex · rw.Lock(), rw.Unlock(), rw.RLock(), rw.RUnlock()",
		API:     []string{"(*sync.RWMutex).Lock", "(*sync.RWMutex).Unlock", "(*sync.RWMutex).RLock", "(*sync.RWMutex).RUnlock"},
		Becomes: "a mutex under `rwmutexes:`, and `lock:`, `unlock:`, `rlock:`, `runlock:`"},
	{ID: "sync.TryLock", Go: "mu.TryLock()", Status: Refused, API: []string{"(*sync.Mutex).TryLock"},
		Becomes: "TryLock's result is decided as the program runs", Hint: "use Lock"},
	{ID: "sync.WaitGroup", Go: "var wg sync.WaitGroup · wg.Add(n), wg.Done(), wg.Wait(), wg.Go(f) (also through &wg)",
		API:     []string{"(*sync.WaitGroup).Add", "(*sync.WaitGroup).Done", "(*sync.WaitGroup).Wait", "(*sync.WaitGroup).Go"},
		Becomes: "a wait group under `waitgroups:`, and `add: {wg, n}`, `done: wg`, `wait: wg`; wg.Go(f) is `go: {wg, do}`"},
	{ID: "sync other", Go: "sync.Once, sync.Cond, sync.Locker", Status: Refused,
		API:     []string{"(*sync.Once).Do", "sync.NewCond", "(*sync.Cond).Wait", "(*sync.Cond).Signal", "(*sync.Cond).Broadcast", "(sync.Locker).Lock", "(sync.Locker).Unlock"},
		Becomes: "%s is not modelled", Hint: "use a channel"},

	// Output.
	{ID: "fmt.Print", Go: "fmt.Println, fmt.Printf, fmt.Print, log.Print, log.Printf, log.Println, print, println, of values it can evaluate",
		API: []string{"fmt.Println", "fmt.Printf", "fmt.Print", "log.Print", "log.Printf", "log.Println"},
		Becomes: "`print:` of the line, formatted by Go's fmt as the front end reads the program; the newline at its end ends the line, and a text without one is a line too. " +
			"log's date and time prefix (the clock's) is left out, and print and println, which write without fmt, are printed as fmt would print their strings, integers and bools. " +
			"The model has one output: standard error (log, print, println) and standard output are written to it in the order of the writes"},
	{ID: "print value", Go: "fmt.Println(v) with v received, read from a field or written by another goroutine without a send, close or flag after the write", Status: Refused,
		Becomes: "a printed value that depends on %s cannot be evaluated", Hint: "print constants, loop variables or arguments, or leave the printing out: the order of go-start and go-exit events shows who ran"},
	{ID: "print text", Go: "a print of several lines, of more than 200 bytes, of a float with print, of %p, of an interface value", Status: Refused,
		Becomes: "%s", Hint: "print one line of at most 200 bytes with each call, of values fmt formats the same whatever runs"},
	{ID: "os.Stdout.Close", Go: "os.Stdout.Close(), f.Close()", Status: Refused, API: []string{"(*os.File).Close"},
		Becomes: "%s is not modelled (a program schedlab real wrote closes os.Stdout as main's last act, which is read as nothing)", Hint: "leave it out"},
	{ID: "log.Fatal", Go: "log.Fatal, log.Fatalf, log.Fatalln", Status: Refused, API: []string{"log.Fatal", "log.Fatalf", "log.Fatalln"},
		Becomes: "%s exits with status 1, and the model has no exit status", Hint: "leave it out, or decide its if with a constant"},
	{ID: "fmt.Sprintf", Go: "fmt.Sprintf, fmt.Sprint, fmt.Sprintln, fmt.Errorf, errors.New", Becomes: "nothing: a string or error whose text is not known",
		API: []string{"fmt.Sprintf", "fmt.Sprint", "fmt.Sprintln", "fmt.Errorf", "errors.New"}},

	// sync/atomic.
	{ID: "atomic.Bool", Go: "var done atomic.Bool · done.Store(true) · done.Load()", Becomes: "a flag (see for !done.Load() above); Load outside a loop's condition is not known",
		API: []string{"(*sync/atomic.Bool).Load", "(*sync/atomic.Bool).Store"}},
	{ID: "atomic.Bool other", Go: "done.Swap(b), done.CompareAndSwap(a, b)", Status: Refused, API: []string{"(*sync/atomic.Bool).Swap", "(*sync/atomic.Bool).CompareAndSwap"},
		Becomes: "%s's result is decided as the program runs", Hint: "use Store(true) and a loop on Load"},
	{ID: "atomic counters", Go: "atomic.AddInt64(&n, d), n.Add(d), n.Load(), n.Store(v) (Int32, Int64)", Becomes: "`cpu:` of one iteration, as a plain statement; the value is not known",
		API: []string{"sync/atomic.AddInt32", "sync/atomic.AddInt64", "sync/atomic.LoadInt32", "sync/atomic.LoadInt64", "sync/atomic.StoreInt32", "sync/atomic.StoreInt64",
			"(*sync/atomic.Int32).Load", "(*sync/atomic.Int32).Store", "(*sync/atomic.Int32).Add", "(*sync/atomic.Int64).Load", "(*sync/atomic.Int64).Store", "(*sync/atomic.Int64).Add"}},

	// context.
	{ID: "context.Background", Go: "context.Background(), context.TODO()", Becomes: "a context that is never cancelled", API: []string{"context.Background", "context.TODO"}},
	{ID: "context cancel", Go: "context.WithCancel, context.WithTimeout, ctx.Done()", Status: Refused,
		API:     []string{"context.WithCancel", "context.WithTimeout", "(context.Context).Done", "(context.Context).Err", "(context.Context).Deadline", "(context.Context).Value"},
		Becomes: "%s is not modelled: the model's contexts are never cancelled", Hint: "use context.Background()"},

	// golang.org/x/sync.
	{ID: "semaphore.NewWeighted", Go: "semaphore.NewWeighted(n)", Becomes: "a semaphore under `sems:`", API: []string{"golang.org/x/sync/semaphore.NewWeighted"}},
	{ID: "semaphore.Acquire", Go: "s.Acquire(ctx, n)", Becomes: "`acquire: {sem, n}`", API: []string{"(*golang.org/x/sync/semaphore.Weighted).Acquire"}},
	{ID: "semaphore.Release", Go: "s.Release(n)", Becomes: "`release: {sem, n}`", API: []string{"(*golang.org/x/sync/semaphore.Weighted).Release"}},
	{ID: "semaphore.TryAcquire", Go: "s.TryAcquire(n)", Status: Refused, API: []string{"(*golang.org/x/sync/semaphore.Weighted).TryAcquire"},
		Becomes: "TryAcquire's result is decided as the program runs", Hint: "use Acquire"},
	{ID: "errgroup", Go: "var g errgroup.Group · g, ctx := errgroup.WithContext(ctx); g.SetLimit(n); g.Go(f) …; g.Wait()",
		Becomes: "`group: {limit, count, do}`: every g.Go of one group runs the same code, and nothing but g.Go comes between the first and g.Wait",
		API:     []string{"golang.org/x/sync/errgroup.WithContext", "(*golang.org/x/sync/errgroup.Group).Go", "(*golang.org/x/sync/errgroup.Group).SetLimit", "(*golang.org/x/sync/errgroup.Group).Wait"}},
	{ID: "errgroup.TryGo", Go: "g.TryGo(f)", Status: Refused, API: []string{"(*golang.org/x/sync/errgroup.Group).TryGo"},
		Becomes: "TryGo's result is decided as the program runs", Hint: "use Go"},

	// ants, and schedlab's own pool.
	{ID: "ants.NewPool", Go: "ants.NewPool(n, options…)", Becomes: "a pool under `pools:` (n ≤ 0: no limit)",
		API: []string{"github.com/panjf2000/ants/v2.NewPool", poolImport + ".New", corePool + ".New"}},
	{ID: "ants options", Go: "ants.WithExpiryDuration(d), ants.WithNonblocking(b), ants.WithMaxBlockingTasks(n), ants.WithPreAlloc(b)",
		Becomes: "the pool's `expiry`, `nonblocking`, `max_blocking`, `prealloc`",
		API: []string{"github.com/panjf2000/ants/v2.WithExpiryDuration", "github.com/panjf2000/ants/v2.WithNonblocking", "github.com/panjf2000/ants/v2.WithMaxBlockingTasks", "github.com/panjf2000/ants/v2.WithPreAlloc",
			poolImport + ".WithExpiry", poolImport + ".WithNonblocking", poolImport + ".WithMaxBlocking", poolImport + ".WithPreAlloc",
			corePool + ".WithExpiry", corePool + ".WithNonblocking", corePool + ".WithMaxBlocking", corePool + ".WithPreAlloc"}},
	{ID: "pool queue", Go: "pool.WithQueue(n) (schedlab's pool, in a program schedlab real wrote)", Becomes: "the pool's `queue`",
		API: []string{poolImport + ".WithQueue", corePool + ".WithQueue"}},
	{ID: "pool coarse clock", Go: "pool.WithCoarseClock(b) (schedlab's pool: ants' clock)", Becomes: "the pool's `clock: coarse`",
		API: []string{poolImport + ".WithCoarseClock", corePool + ".WithCoarseClock"}},
	{ID: "ants other options", Go: "ants.WithOptions, ants.WithPanicHandler, ants.WithDisablePurge", Status: Refused,
		API:     []string{"github.com/panjf2000/ants/v2.WithOptions", "github.com/panjf2000/ants/v2.WithPanicHandler", "github.com/panjf2000/ants/v2.WithDisablePurge"},
		Becomes: "%s is not modelled", Hint: "use WithExpiryDuration, WithNonblocking, WithMaxBlockingTasks or WithPreAlloc"},
	{ID: "ants.Submit", Go: "p.Submit(f)", Becomes: "`submit: {pool, count, do}`",
		API: []string{"(*github.com/panjf2000/ants/v2.Pool).Submit", "(*" + poolImport + ".Pool).Submit", "(*" + corePool + ".Pool).Submit"}},
	{ID: "ants.NewPoolWithFunc", Go: "ants.NewPoolWithFunc(n, f, options…); p.Invoke(x)", Becomes: "a pool, and `submit:` of f's body with x for each Invoke",
		API: []string{"github.com/panjf2000/ants/v2.NewPoolWithFunc", "(*github.com/panjf2000/ants/v2.PoolWithFunc).Invoke"}},
	{ID: "ants.Release", Go: "p.Release() as main's last act (defer p.Release())", Becomes: "nothing: the program ends as main returns",
		API: []string{"(*github.com/panjf2000/ants/v2.Pool).Release", "(*github.com/panjf2000/ants/v2.PoolWithFunc).Release", "(*" + poolImport + ".Pool).Release", "(*" + corePool + ".Pool).Release"}},
	{ID: "ants counts", Go: "p.Running(), p.Free(), p.Waiting(), p.Cap()", Becomes: "nothing: the value is not known (Cap: the size)",
		API: []string{"(*github.com/panjf2000/ants/v2.Pool).Running", "(*github.com/panjf2000/ants/v2.Pool).Free", "(*github.com/panjf2000/ants/v2.Pool).Waiting", "(*github.com/panjf2000/ants/v2.Pool).Cap",
			"(*github.com/panjf2000/ants/v2.PoolWithFunc).Running", "(*github.com/panjf2000/ants/v2.PoolWithFunc).Free", "(*github.com/panjf2000/ants/v2.PoolWithFunc).Waiting", "(*github.com/panjf2000/ants/v2.PoolWithFunc).Cap",
			"(*" + poolImport + ".Pool).Running", "(*" + corePool + ".Pool).Running"}},
	{ID: "ants default pool", Go: "ants.Submit(f), ants.Running(), ants.Release() (the default pool)",
		Becomes: "`submit:` to a pool `ants` of no limit, as ants makes at start-up (its size is math.MaxInt32)",
		API:     []string{"github.com/panjf2000/ants/v2.Submit", "github.com/panjf2000/ants/v2.Running", "github.com/panjf2000/ants/v2.Release"}},
	{ID: "ants other", Go: "p.Tune, p.ReleaseTimeout", Status: Refused,
		API:     []string{"(*github.com/panjf2000/ants/v2.Pool).Tune", "(*github.com/panjf2000/ants/v2.Pool).ReleaseTimeout"},
		Becomes: "%s is not modelled", Hint: "keep the pool's size, and release it as main's last act"},

	// Everything else.
	{ID: "import", Go: "any other import (math/rand, strings, net/http, …)", Status: Refused,
		Becomes: "package %s is not in the Go subset schedlab reads", Hint: "see docs/go-subset.md for what is"},
	{ID: "map", Go: "make(map…), map literals", Becomes: "nothing: a value that is not known (ranging over it is refused)"},
	{ID: "slice", Go: "slices and arrays: literals, make, index, len, append", Becomes: "values it can evaluate"},
	{ID: "address", Go: "&x, pointers, struct fields", Becomes: "nothing: values that are not known (x too, from &x on)"},
	{ID: "directive", Go: "//schedlab:until=50ms, expect=deadlock, policy=…, noise, start=warm, seed=N, max-events=N, cpu-rate=R",
		Becomes: "the scenario's settings that Go has no words for"},
	{ID: "schedlab real", Go: "a program schedlab real --emit wrote (its marker comment first)",
		Becomes: "the scenario it was written from: compute, syscallFor, netRead, uniform, exponential and newPool as the actions they stand for, its WaitGroup as `wait: children`, its until as `until:`, its flag_ variables as flags, and the mark of the scenario's end in its trace (trace.Log), the os.Stdout.Close() and the log of its CPU time (logCPUTime) that end its main as nothing"},
}

// corePool is package pool's import path, for a program that uses it
// directly.
const corePool = "github.com/schedlab/schedlab/core/pool"

// message is a refused row's message, with args for its %s.
func (c *Construct) message(args ...any) string {
	if len(args) == 0 || !strings.Contains(c.Becomes, "%") {
		return c.Becomes
	}
	return fmt.Sprintf(c.Becomes, args...)
}

// Markdown is the table as docs/go-subset.md shows it, one section per
// status.
func Markdown() string {
	var b strings.Builder
	for _, st := range []Status{Accepted, NotYet, Refused} {
		switch st {
		case Accepted:
			b.WriteString("### Accepted\n\n| Go | becomes |\n|---|---|\n")
		case NotYet:
			b.WriteString("\n### Not modelled yet\n\nRefused today with the message shown; each turns into an action when the model has it.\n\n| Go | message | issue | instead |\n|---|---|---|---|\n")
		case Refused:
			b.WriteString("\n### Refused\n\n| Go | message | instead |\n|---|---|---|\n")
		}
		for _, c := range constructs {
			if c.Status != st {
				continue
			}
			msg := strings.ReplaceAll(c.Becomes, "%s", "…")
			switch st {
			case Accepted:
				fmt.Fprintf(&b, "| %s | %s |\n", mdCell(c.Go), mdCell(msg))
			case NotYet:
				issue := "—"
				if c.Issue != 0 {
					issue = fmt.Sprint(c.Issue)
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdCell(c.Go), mdCell(msg), issue, mdCell(c.Hint))
			default:
				fmt.Fprintf(&b, "| %s | %s | %s |\n", mdCell(c.Go), mdCell(msg), mdCell(c.Hint))
			}
		}
	}
	return b.String()
}

// mdCell writes text for a table cell: a | would end it.
func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
