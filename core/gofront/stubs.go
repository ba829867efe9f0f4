package gofront

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sync"
)

// The packages a program may import are declared here as Go source: the
// part of each API the front end reads (and the parts it refuses by name,
// so that a refusal is a sentence of the table rather than "undefined").
// They are type-checked once, with no file system and no toolchain, so a
// program is checked the same on a machine without golang.org/x/sync or
// ants in its module cache. Anything not declared here is a type error
// at the place it is used.
var stubSources = map[string]string{
	"time": `package time
type Duration int64
const (
	Nanosecond Duration = 1
	Microsecond = 1000 * Nanosecond
	Millisecond = 1000 * Microsecond
	Second = 1000 * Millisecond
	Minute = 60 * Second
	Hour = 60 * Minute
)
func (d Duration) Seconds() float64
func (d Duration) Milliseconds() int64
func (d Duration) Microseconds() int64
func (d Duration) String() string
type Time struct{ wall uint64 }
func (t Time) Sub(u Time) Duration
type Timer struct{ C <-chan Time }
func (t *Timer) Stop() bool
func (t *Timer) Reset(d Duration) bool
type Ticker struct{ C <-chan Time }
func (t *Ticker) Stop()
func Sleep(d Duration)
func Now() Time
func Since(t Time) Duration
func After(d Duration) <-chan Time
func Tick(d Duration) <-chan Time
func NewTimer(d Duration) *Timer
func NewTicker(d Duration) *Ticker
func AfterFunc(d Duration, f func()) *Timer
`,
	"runtime": `package runtime
func Gosched()
func Goexit()
func GOMAXPROCS(n int) int
func NumCPU() int
func NumGoroutine() int
func GC()
func LockOSThread()
func UnlockOSThread()
`,
	"sync": `package sync
type Mutex struct{ state int32 }
func (m *Mutex) Lock()
func (m *Mutex) Unlock()
func (m *Mutex) TryLock() bool
type RWMutex struct{ w Mutex }
func (rw *RWMutex) Lock()
func (rw *RWMutex) Unlock()
func (rw *RWMutex) RLock()
func (rw *RWMutex) RUnlock()
type WaitGroup struct{ n int64 }
func (wg *WaitGroup) Add(delta int)
func (wg *WaitGroup) Done()
func (wg *WaitGroup) Wait()
func (wg *WaitGroup) Go(f func())
type Once struct{ done uint32 }
func (o *Once) Do(f func())
type Cond struct{ L Locker }
func NewCond(l Locker) *Cond
func (c *Cond) Wait()
func (c *Cond) Signal()
func (c *Cond) Broadcast()
type Locker interface{ Lock(); Unlock() }
`,
	"fmt": `package fmt
func Println(a ...any) (n int, err error)
func Printf(format string, a ...any) (n int, err error)
func Print(a ...any) (n int, err error)
func Sprintf(format string, a ...any) string
func Sprint(a ...any) string
func Sprintln(a ...any) string
func Errorf(format string, a ...any) error
`,
	"errors": `package errors
func New(text string) error
`,
	"log": `package log
func Print(v ...any)
func Printf(format string, v ...any)
func Println(v ...any)
func Fatal(v ...any)
func Fatalf(format string, v ...any)
func Fatalln(v ...any)
`,
	"os": `package os
func Exit(code int)
var Args []string
var Stdout *File
type File struct{ fd int }
func (f *File) Close() error
func (f *File) Read(b []byte) (n int, err error)
func Create(name string) (*File, error)
func NewFile(fd uintptr, name string) *File
`,
	"sync/atomic": `package atomic
type Bool struct{ v uint32 }
func (x *Bool) Load() bool
func (x *Bool) Store(val bool)
func (x *Bool) Swap(new bool) (old bool)
func (x *Bool) CompareAndSwap(old, new bool) (swapped bool)
type Int32 struct{ v int32 }
func (x *Int32) Load() int32
func (x *Int32) Store(val int32)
func (x *Int32) Add(delta int32) (new int32)
type Int64 struct{ v int64 }
func (x *Int64) Load() int64
func (x *Int64) Store(val int64)
func (x *Int64) Add(delta int64) (new int64)
func AddInt32(addr *int32, delta int32) (new int32)
func AddInt64(addr *int64, delta int64) (new int64)
func LoadInt32(addr *int32) (val int32)
func LoadInt64(addr *int64) (val int64)
func StoreInt32(addr *int32, val int32)
func StoreInt64(addr *int64, val int64)
`,
	"context": `package context
import "time"
type Context interface {
	Done() <-chan struct{}
	Err() error
	Deadline() (deadline time.Time, ok bool)
	Value(key any) any
}
type CancelFunc func()
func Background() Context
func TODO() Context
func WithCancel(parent Context) (Context, CancelFunc)
func WithTimeout(parent Context, d time.Duration) (Context, CancelFunc)
`,
	"golang.org/x/sync/semaphore": `package semaphore
import "context"
type Weighted struct{ size int64 }
func NewWeighted(n int64) *Weighted
func (s *Weighted) Acquire(ctx context.Context, n int64) error
func (s *Weighted) TryAcquire(n int64) bool
func (s *Weighted) Release(n int64)
`,
	"golang.org/x/sync/errgroup": `package errgroup
import "context"
type Group struct{ n int }
func WithContext(ctx context.Context) (*Group, context.Context)
func (g *Group) Go(f func() error)
func (g *Group) TryGo(f func() error) bool
func (g *Group) SetLimit(n int)
func (g *Group) Wait() error
`,
	"github.com/panjf2000/ants/v2": `package ants
import "time"
type Options struct {
	ExpiryDuration time.Duration
	PreAlloc bool
	MaxBlockingTasks int
	Nonblocking bool
	PanicHandler func(any)
	DisablePurge bool
}
type Option func(opts *Options)
func WithOptions(options Options) Option
func WithExpiryDuration(d time.Duration) Option
func WithPreAlloc(preAlloc bool) Option
func WithMaxBlockingTasks(n int) Option
func WithNonblocking(nonblocking bool) Option
func WithPanicHandler(h func(any)) Option
func WithDisablePurge(disable bool) Option
type Pool struct{ capacity int32 }
func NewPool(size int, options ...Option) (*Pool, error)
func (p *Pool) Submit(task func()) error
func (p *Pool) Running() int
func (p *Pool) Free() int
func (p *Pool) Cap() int
func (p *Pool) Waiting() int
func (p *Pool) Release()
func (p *Pool) ReleaseTimeout(d time.Duration) error
func (p *Pool) Tune(size int)
type PoolWithFunc struct{ capacity int32 }
func NewPoolWithFunc(size int, pf func(any), options ...Option) (*PoolWithFunc, error)
func (p *PoolWithFunc) Invoke(args any) error
func (p *PoolWithFunc) Running() int
func (p *PoolWithFunc) Free() int
func (p *PoolWithFunc) Cap() int
func (p *PoolWithFunc) Waiting() int
func (p *PoolWithFunc) Release()
func Submit(task func()) error
func Release()
func Running() int
var ErrPoolOverload error
var ErrPoolClosed error
`,
	// The copy of package pool (core/pool) a program schedlab real
	// writes is built with, under the generated module's path.
	poolImport: poolStub,
	// core/pool itself, for a program that imports it.
	"github.com/schedlab/schedlab/core/pool": poolStub,

	// What the helpers of a program schedlab real writes use: their
	// bodies are not read, but the packages must exist.
	// trace.Log is the mark of the scenario's end in main
	// (generatedMain).
	"runtime/trace": "package trace\nimport \"context\"\nfunc Log(ctx context.Context, category, message string)\nfunc Logf(ctx context.Context, category, format string, args ...any)\n",
	"syscall":       "package syscall\n",
	// The copy of package cputime (internal/cputime) a traced program
	// schedlab real writes reads its CPU time with.
	cputimeImport:           "package cputime\nimport \"time\"\nfunc Process() (time.Duration, bool)\n",
	"golang.org/x/sys/unix": "package unix\n",
	"math/rand/v2": `package rand
type Source interface{ Uint64() uint64 }
type PCG struct{ hi, lo uint64 }
func (p *PCG) Uint64() uint64
func NewPCG(seed1, seed2 uint64) *PCG
type Rand struct{ src Source }
func New(src Source) *Rand
func (r *Rand) Int64N(n int64) int64
func (r *Rand) ExpFloat64() float64
`,
}

// poolImport is the import path of package pool in a program schedlab
// real writes (realprog.ModulePath + "/pool"), cputimeImport that of
// package cputime.
const (
	poolImport    = "schedlabreal/pool"
	cputimeImport = "schedlabreal/cputime"
)

const poolStub = `package pool
import "time"
type Option func(*int)
func WithExpiry(d time.Duration) Option
func WithPreAlloc(preAlloc bool) Option
func WithMaxBlocking(n int) Option
func WithNonblocking(nonblocking bool) Option
func WithQueue(n int) Option
func WithCoarseClock(coarse bool) Option
type Pool struct{ size int }
func New(size int, opts ...Option) (*Pool, error)
func (p *Pool) Submit(task func()) error
func (p *Pool) Running() int
func (p *Pool) Release()
var ErrPoolOverload error
`

// stubImporter serves the stub packages, checking each the first time it
// is asked for; the standard importer is used for nothing.
type stubImporter struct {
	mu   sync.Mutex
	fset *token.FileSet
	pkgs map[string]*types.Package
	err  map[string]error
}

var stubs = &stubImporter{fset: token.NewFileSet(), pkgs: map[string]*types.Package{}, err: map[string]error{}}

// errNotInSubset is returned for an import with no stub.
type errNotInSubset struct{ path string }

func (e errNotInSubset) Error() string { return fmt.Sprintf("package %s is not in the subset", e.path) }

func (s *stubImporter) Import(path string) (*types.Package, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.load(path, 0)
}

func (s *stubImporter) load(path string, depth int) (*types.Package, error) {
	if p, ok := s.pkgs[path]; ok {
		return p, nil
	}
	if err, ok := s.err[path]; ok {
		return nil, err
	}
	src, ok := stubSources[path]
	if !ok || depth > 4 {
		return nil, errNotInSubset{path}
	}
	f, err := parser.ParseFile(s.fset, path+".go", src, parser.SkipObjectResolution)
	if err != nil {
		panic("gofront: the stub of " + path + " does not parse: " + err.Error())
	}
	conf := types.Config{
		Importer:  importerFunc(func(p string) (*types.Package, error) { return s.load(p, depth+1) }),
		GoVersion: goVersion,
		// A stub declares functions without bodies.
		IgnoreFuncBodies: true,
	}
	pkg, err := conf.Check(path, s.fset, []*ast.File{f}, nil)
	if err != nil {
		panic("gofront: the stub of " + path + " does not type-check: " + err.Error())
	}
	s.pkgs[path] = pkg
	return pkg, nil
}

type importerFunc func(string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// goVersion is the language version programs are checked against: the
// Go the model models, with range over integers and a fresh loop
// variable per iteration.
const goVersion = "go1.26"
