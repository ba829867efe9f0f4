package pool

import (
	"log"
	"os"
	"time"
)

// DefaultExpiry is how long a worker stays idle before the purge stops it,
// unless WithExpiry says otherwise.
const DefaultExpiry = time.Second

// Logger receives the pool's log lines: the panics of tasks when there is no
// panic handler. *log.Logger implements it.
type Logger interface {
	// Printf logs a line, with the semantics of log.Printf.
	Printf(format string, args ...any)
}

// defaultLogger is where panics go when neither WithPanicHandler nor
// WithLogger is given. Creating it starts nothing.
var defaultLogger Logger = log.New(os.Stderr, "pool: ", log.LstdFlags|log.Lmsgprefix)

// Option sets one field of Options; pass any number of them to New, NewFunc
// or NewMulti.
type Option func(*Options)

// Options configures a pool. Its zero value is the default configuration:
// workers expire after DefaultExpiry, idle workers are kept on a stack,
// submitters wait without limit, panics are logged to stderr, and time comes
// from SystemClock.
type Options struct {
	// Expiry is how long a worker may stay idle before the purge stops it.
	// Zero means DefaultExpiry; a negative value makes New fail with
	// ErrInvalidExpiry. A worker is stopped exactly Expiry after it went
	// idle, not up to twice that as in ants (see the package doc).
	Expiry time.Duration

	// PreAlloc keeps the idle workers in a ring allocated once at the
	// pool's full size instead of a growing stack, and reuses them oldest
	// first, as ants does. It needs a positive size (ErrInvalidPreAllocSize
	// otherwise) and makes Tune a no-op.
	PreAlloc bool

	// MaxBlocking caps the number of submitters waiting for a worker; the
	// next one gets ErrPoolOverload. Zero means no cap; a negative value
	// makes New fail with ErrInvalidMaxBlocking.
	MaxBlocking int

	// Nonblocking makes a submit that finds no free worker fail at once
	// with ErrPoolOverload instead of waiting. It overrides MaxBlocking.
	Nonblocking bool

	// Queue is how many accepted tasks may wait in the pool's queue when
	// every worker is busy and none may be started. A worker that finishes
	// a task takes the oldest queued one and runs it at once, before it
	// would park; a submit that finds no worker queues its task and returns
	// without waiting, while the queue has room and nobody waits. Once it
	// is full, submitters wait (or are rejected) as without a queue, and
	// are let into it, in arrival order, when it has drained to half its
	// length. Zero (the default) means no queue. A negative value makes New
	// fail with ErrInvalidQueue. Under load it saves a worker's park and
	// wake-up, or a waiting submitter's, per task (see Cost in the package
	// doc); with it, a task may wait behind a busy worker's task while
	// another worker could start, as in any queued executor.
	Queue int

	// PanicHandler is called with the value of every panic a task raises,
	// in the worker's goroutine, after the panic is recovered and before
	// the worker takes its next task. It must not panic itself. When it is
	// nil, the panic and its stack trace are logged through Logger.
	PanicHandler func(any)

	// Logger receives the panics of tasks when PanicHandler is nil. Nil
	// means a log.Logger on stderr.
	Logger Logger

	// DisablePurge keeps idle workers forever: no purge timer is armed.
	DisablePurge bool

	// CoarseClock stamps a worker going idle as ants does: with a clock
	// that moves every 500ms (decide.CoarsePeriod) from the pool's start,
	// and runs the purge on ants' schedule, every Expiry from the start.
	// A tick then stops every idle worker whose stamp is Expiry old, and
	// until the clock moves every stamp is the pool's start: a worker
	// used a moment ago is stopped at the next tick, so a pool busy in
	// short bursts starts far more workers than its Expiry suggests. It
	// is there to show and compare that behaviour; the default keeps each
	// worker for exactly Expiry. The coarse time is read from Clock like
	// any other, so it needs no goroutine and no timer of its own.
	CoarseClock bool

	// Clock is the source of all the pool's time and timers. Nil means
	// SystemClock(); tests and simulations pass a manualclock.Clock.
	Clock Clock

	// Hooks are called at each decision the pool makes; see Hooks. The
	// zero value calls nothing.
	Hooks Hooks
}

// WithExpiry sets Options.Expiry: how long a worker may stay idle.
func WithExpiry(d time.Duration) Option { return func(o *Options) { o.Expiry = d } }

// WithPreAlloc sets Options.PreAlloc: idle workers in a pre-allocated ring.
func WithPreAlloc(preAlloc bool) Option { return func(o *Options) { o.PreAlloc = preAlloc } }

// WithMaxBlocking sets Options.MaxBlocking: the most submitters that may wait.
func WithMaxBlocking(n int) Option { return func(o *Options) { o.MaxBlocking = n } }

// WithQueue sets Options.Queue: how many accepted tasks may wait for a
// worker, which the workers drain before they park.
func WithQueue(n int) Option { return func(o *Options) { o.Queue = n } }

// WithNonblocking sets Options.Nonblocking: fail instead of waiting.
func WithNonblocking(nonblocking bool) Option {
	return func(o *Options) { o.Nonblocking = nonblocking }
}

// WithPanicHandler sets Options.PanicHandler: who is told of a task's panic.
func WithPanicHandler(handler func(any)) Option {
	return func(o *Options) { o.PanicHandler = handler }
}

// WithLogger sets Options.Logger: where panics are logged without a handler.
func WithLogger(logger Logger) Option { return func(o *Options) { o.Logger = logger } }

// WithDisablePurge sets Options.DisablePurge: keep idle workers forever.
func WithDisablePurge(disable bool) Option { return func(o *Options) { o.DisablePurge = disable } }

// WithCoarseClock sets Options.CoarseClock: stamp idle workers with a
// clock that moves every 500ms, and purge on a ticker, as ants does.
func WithCoarseClock(coarse bool) Option { return func(o *Options) { o.CoarseClock = coarse } }

// WithClock sets Options.Clock: the source of the pool's time.
func WithClock(clock Clock) Option { return func(o *Options) { o.Clock = clock } }

// WithHooks sets Options.Hooks: callbacks for each decision.
func WithHooks(hooks Hooks) Option { return func(o *Options) { o.Hooks = hooks } }

// resolveOptions applies opts to the defaults and checks the result against
// the pool's size (size <= 0 meaning unlimited).
func resolveOptions(size int, opts []Option) (Options, error) {
	var o Options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	switch {
	case o.Expiry < 0:
		return o, ErrInvalidExpiry
	case o.MaxBlocking < 0:
		return o, ErrInvalidMaxBlocking
	case o.Queue < 0:
		return o, ErrInvalidQueue
	case o.PreAlloc && size <= 0:
		return o, ErrInvalidPreAllocSize
	}
	if o.Expiry == 0 {
		o.Expiry = DefaultExpiry
	}
	if o.Logger == nil {
		o.Logger = defaultLogger
	}
	if o.Clock == nil {
		o.Clock = SystemClock()
	}
	return o, nil
}
