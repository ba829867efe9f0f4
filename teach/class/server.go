package class

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Config is what the teacher decides; the zero value of each field takes
// its default.
type Config struct {
	// URL is where students reach the server, such as
	// "http://192.168.1.20:7010", for JoinURL.
	URL string
	// Code is the join code; "" draws one (NewCode).
	Code string
	// MaxClients caps the students who can join (default 200).
	MaxClients int
	// Now is the clock of the rate limits (default time.Now): tests
	// move it by hand.
	Now func() time.Time
	// The rate limits, in requests a second and the bursts allowed: per
	// student (default 5, 30) and for the whole server (default 400,
	// 1500).
	ClientRate, ClientBurst float64
	GlobalRate, GlobalBurst float64
	// StreamInterval is the least time between two updates a student's
	// event stream sends (default 200ms): playback publishes every
	// frame, and thirty phones on one access point need no more than
	// five a second. The updates in between are skipped, never queued.
	StreamInterval time.Duration
}

// Limits past the teacher's flags.
const (
	DefaultMaxClients = 200
	// maxBody is the most a request body may hold: an answer is two
	// small numbers.
	maxBody = 1 << 10
	// failRate and failBurst bound the wrong join codes one address may
	// try: ten, then one every six seconds (guessing an eight-letter
	// code would take millennia).
	failRate  = 1.0 / 6
	failBurst = 10
	// maxAddrs caps the addresses whose wrong codes are counted.
	maxAddrs = 4096
	// streamsPerClient caps one student's open event streams (tabs).
	streamsPerClient = 3
	// heartbeat keeps an idle event stream open through proxies.
	heartbeat = 20 * time.Second
	// writeWait is how long one write to a student may take: a phone
	// that stopped reading is dropped, not waited for.
	writeWait  = 10 * time.Second
	cookieName = "schedlab_class"
)

// codeAlphabet has no 0/O or 1/I, so that a code read off a projector
// is typed right.
const codeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

// NewCode draws an eight-character join code from crypto/rand.
func NewCode() string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	for i := range b {
		b[i] = codeAlphabet[int(b[i])%len(codeAlphabet)]
	}
	return string(b[:])
}

// CheckCode reports what is wrong with a join code the teacher chose.
func CheckCode(code string) error {
	if len(code) < 4 || len(code) > 32 {
		return fmt.Errorf("want 4 to 32 characters, not %d", len(code))
	}
	for _, r := range code {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return fmt.Errorf("%q: want letters, digits, - and _ only", r)
		}
	}
	return nil
}

// Server is the classroom server: an http.Handler, fed by Publish.
type Server struct {
	cfg                            Config
	code                           string // upper case: codes are typed on phones
	now                            func() time.Time
	clientLimit, globalLimit, fail limit

	// pubMu guards pub. Only Publish and Number take it, never a
	// request, so that no student can hold up the teacher's UI.
	pubMu sync.Mutex
	pub   struct {
		version, svgVersion uint64
		svg                 []byte
		state               []byte // the last state's JSON, to skip repeats
		records             []record
		last                int // the record revealed last, -1 for none
		numbers             map[string]int
	}
	// live is the latest snapshot; changed is closed when a newer one is
	// stored, and replaced.
	live    atomic.Pointer[snapshot]
	changed atomic.Pointer[chan struct{}]
	done    chan struct{}
	close   sync.Once

	// mu guards what requests change. It is held for map updates only,
	// never across a write to the network.
	mu      sync.Mutex
	clients map[string]*client
	failed  map[string]*bucket
	global  bucket
	tally   map[int][]int
	streams int
	joined  atomic.Int64
}

// snapshot is one published Live, ready to send.
type snapshot struct {
	version uint64
	state   wireState
	json    []byte // state's JSON
	svg     []byte
	open    int // the question taking answers, 0 for none
	choices int // its choices
	records []record
}

// client is one student who joined.
type client struct {
	bucket  bucket
	answers map[int]int // question → choice, from 1
	streams int
}

// New returns a server for cfg; it serves nothing until it is handed to
// an http.Server (HTTPServer) and publishes an empty page until the
// first Publish.
func New(cfg Config) (*Server, error) {
	if cfg.Code == "" {
		cfg.Code = NewCode()
	} else if err := CheckCode(cfg.Code); err != nil {
		return nil, fmt.Errorf("join code: %w", err)
	}
	if cfg.MaxClients <= 0 {
		cfg.MaxClients = DefaultMaxClients
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	def := func(v *float64, d float64) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&cfg.ClientRate, 5)
	def(&cfg.ClientBurst, 30)
	def(&cfg.GlobalRate, 400)
	def(&cfg.GlobalBurst, 1500)
	if cfg.StreamInterval <= 0 {
		cfg.StreamInterval = 200 * time.Millisecond
	}
	s := &Server{
		cfg: cfg, code: strings.ToUpper(cfg.Code), now: cfg.Now,
		clientLimit: limit{cfg.ClientRate, cfg.ClientBurst},
		globalLimit: limit{cfg.GlobalRate, cfg.GlobalBurst},
		fail:        limit{failRate, failBurst},
		done:        make(chan struct{}),
		clients:     map[string]*client{},
		failed:      map[string]*bucket{},
		tally:       map[int][]int{},
	}
	s.pub.last = -1
	s.pub.numbers = map[string]int{}
	ch := make(chan struct{})
	s.changed.Store(&ch)
	s.Publish(Live{Title: "schedlab class", Event: "Waiting for the teacher to start."})
	return s, nil
}

// Code is the join code.
func (s *Server) Code() string { return s.cfg.Code }

// JoinURL is the address to share: the server's URL with the code.
func (s *Server) JoinURL() string {
	return strings.TrimSuffix(s.cfg.URL, "/") + "/?code=" + url.QueryEscape(s.cfg.Code)
}

// MaxClients is the cap on students.
func (s *Server) MaxClients() int { return s.cfg.MaxClients }

// HTTPServer returns an http.Server for s with the timeouts and header
// cap a server open to a room needs. (Writes have no overall deadline:
// the event streams set one per write.)
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    8 << 10,
	}
}

// Close ends every event stream; the http.Server can then shut down.
func (s *Server) Close() { s.close.Do(func() { close(s.done) }) }

// Number is the number of the question the UI calls id: 1 for the first
// asked, and the same number when it is asked again, so that a student's
// answer to it still counts once.
func (s *Server) Number(id string) int {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	n, ok := s.pub.numbers[id]
	if !ok {
		n = len(s.pub.numbers) + 1
		s.pub.numbers[id] = n
	}
	return n
}

// Publish makes l what students see. It never waits for a student: it
// takes no lock a request takes, stores the new state and wakes the
// streams, each of which sends it when it can (a slow one skips to the
// latest). Calls from several goroutines are serialised.
func (s *Server) Publish(l Live) {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	p := &s.pub
	ws, q, rev := bounded(l)
	if n := len(l.Timeline); n > 0 && n <= maxTimeline {
		if !bytes.Equal(p.svg, l.Timeline) {
			p.svg = bytes.Clone(l.Timeline)
			p.svgVersion++
		}
	} else {
		p.svg = nil
	}
	if p.svg != nil {
		ws.Timeline = p.svgVersion
	}
	snap := &snapshot{svg: p.svg}
	if q != nil {
		p.records = remember(p.records, q, rev, &p.last)
		ws.Question = wire(q, rev)
		if rev == nil {
			snap.open, snap.choices = q.Number, len(q.Choices)
		}
	} else if p.last >= 0 {
		last := p.records[p.last].q
		ws.Last = &last
	}
	snap.records = p.records
	data, err := json.Marshal(ws)
	if err != nil {
		panic(err) // strings, ints and slices of them always marshal
	}
	if prev := s.live.Load(); prev != nil && bytes.Equal(data, p.state) && prev.open == snap.open {
		return // nothing new to send
	}
	p.version++
	p.state = data
	snap.version, snap.state, snap.json = p.version, ws, data
	s.live.Store(snap)
	next := make(chan struct{})
	close(*s.changed.Swap(&next))
}

// remember records q (and its reveal) among rs, copying rather than
// changing rs: earlier snapshots share it.
func remember(rs []record, q *Question, rev *Reveal, last *int) []record {
	i := slices.IndexFunc(rs, func(r record) bool { return r.q.Number == q.Number })
	if i < 0 {
		rs = append(slices.Clip(rs), record{q: *wire(q, nil), answer: -1})
		i = len(rs) - 1
	}
	if rev != nil && rs[i].answer != rev.Answer {
		rs = slices.Clone(rs)
		rs[i].answer = rev.Answer
		rs[i].q = *wire(q, rev)
	}
	if rev != nil {
		*last = i
	}
	return rs
}

// Joined is the number of students who joined.
func (s *Server) Joined() int { return int(s.joined.Load()) }

// Tally is the answers to question q, by choice from 0; nil before the
// first.
func (s *Server) Tally(q int) []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.tally[q])
}

// ServeHTTP serves the student page, its event stream and its answers.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	// Only the server's own script and style, no frames, no referrer
	// (the join URL holds the code).
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
	if r.URL.Path == "/" && r.URL.Query().Has("code") {
		s.join(w, r)
		return
	}
	c := s.student(r)
	if c == nil {
		s.forbidden(w, "")
		return
	}
	if !s.allow(c) {
		http.Error(w, "too many requests: wait a moment", http.StatusTooManyRequests)
		return
	}
	switch r.URL.Path {
	case "/answer":
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			http.Error(w, "answers are posted", http.StatusMethodNotAllowed)
			return
		}
		s.answer(w, r, c)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "only GET here", http.StatusMethodNotAllowed)
		return
	}
	switch r.URL.Path {
	case "/":
		s.page(w, c)
	case "/events":
		s.stream(w, r, c)
	case "/state":
		h.Set("Content-Type", "application/json")
		w.Write(s.message(c, s.live.Load()))
	case "/app.js":
		h.Set("Content-Type", "text/javascript; charset=utf-8")
		w.Write(appJS)
	case "/app.css":
		h.Set("Content-Type", "text/css; charset=utf-8")
		w.Write(appCSS)
	case "/timeline.svg":
		svg := s.live.Load().svg
		if svg == nil {
			http.NotFound(w, r)
			return
		}
		h.Set("Content-Type", "image/svg+xml")
		w.Write(svg)
	default:
		http.NotFound(w, r)
	}
}

// student is who sent r, by the cookie the server issued on joining; nil
// for a stranger.
func (s *Server) student(r *http.Request) *client {
	ck, err := r.Cookie(cookieName)
	if err != nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clients[ck.Value]
}

// allow spends a token of c's bucket and one of the server's.
func (s *Server) allow(c *client) bool {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	return c.bucket.take(s.clientLimit, now) && s.global.take(s.globalLimit, now)
}

// join checks the code of a first request and gives the student a cookie
// (the one it has, when it comes back), then sends it to the page without
// the code in its address bar.
func (s *Server) join(w http.ResponseWriter, r *http.Request) {
	code := r.URL.Query().Get("code")
	addr, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		addr = r.RemoteAddr
	}
	now := s.now()
	s.mu.Lock()
	fails := s.failures(addr, now)
	if fails == nil || !fails.has(s.fail, now) {
		s.mu.Unlock()
		http.Error(w, "too many wrong codes from this address: wait a minute", http.StatusTooManyRequests)
		return
	}
	if len(code) > 64 || subtle.ConstantTimeCompare([]byte(strings.ToUpper(code)), []byte(s.code)) != 1 {
		fails.take(s.fail, now)
		s.mu.Unlock()
		s.forbidden(w, "That is not this class's code.")
		return
	}
	if !s.global.take(s.globalLimit, now) {
		s.mu.Unlock()
		http.Error(w, "too many requests: wait a moment", http.StatusTooManyRequests)
		return
	}
	id := ""
	if ck, err := r.Cookie(cookieName); err == nil && s.clients[ck.Value] != nil {
		id = ck.Value
	} else {
		if len(s.clients) >= s.cfg.MaxClients {
			s.mu.Unlock()
			s.full(w)
			return
		}
		var b [16]byte
		rand.Read(b[:])
		id = hex.EncodeToString(b[:])
		s.clients[id] = &client{answers: map[int]int{}}
		s.joined.Add(1)
	}
	s.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: id, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// failures is the bucket of wrong codes from addr, nil when the table of
// addresses is full of ones still being counted. s.mu is held.
func (s *Server) failures(addr string, now time.Time) *bucket {
	if b := s.failed[addr]; b != nil {
		return b
	}
	if len(s.failed) >= maxAddrs {
		for a, b := range s.failed {
			if b.full(s.fail, now) {
				delete(s.failed, a)
			}
		}
		if len(s.failed) >= maxAddrs {
			return nil
		}
	}
	b := &bucket{}
	s.failed[addr] = b
	return b
}

// answer records a student's answer to the open question: 204, or 303
// back to the page for the form posted without the page's script.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, c *client) {
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host && o != "https://"+r.Host {
		http.Error(w, "answers come from the class page", http.StatusForbidden)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if err := r.ParseForm(); err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			http.Error(w, "request too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "malformed form", http.StatusBadRequest)
		return
	}
	q, okq := formInt(r, "q")
	choice, okc := formInt(r, "choice")
	if !okq || !okc {
		http.Error(w, "want the form fields q and choice, each a number", http.StatusBadRequest)
		return
	}
	back := r.PostForm.Get("back") == "1"
	snap := s.live.Load()
	if snap.open == 0 || q != snap.open {
		s.answered(w, r, back, http.StatusConflict, "that question is not open")
		return
	}
	if choice < 1 || choice > snap.choices {
		http.Error(w, fmt.Sprintf("choice: want 1 to %d", snap.choices), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	_, again := c.answers[q]
	if !again {
		c.answers[q] = choice
		t := s.tally[q]
		if t == nil {
			t = make([]int, snap.choices)
			s.tally[q] = t
		}
		t[choice-1]++
	}
	s.mu.Unlock()
	if again {
		s.answered(w, r, back, http.StatusConflict, "you answered this question already")
		return
	}
	s.answered(w, r, back, http.StatusNoContent, "")
}

// answered ends an answer: the status, or for a form posted without the
// script the page again, which says what was recorded.
func (s *Server) answered(w http.ResponseWriter, r *http.Request, back bool, status int, msg string) {
	switch {
	case back:
		http.Redirect(w, r, "/", http.StatusSeeOther)
	case status == http.StatusNoContent:
		w.WriteHeader(status)
	default:
		http.Error(w, msg, status)
	}
}

// formInt reads the one value of a posted field as a small number.
func formInt(r *http.Request, name string) (int, bool) {
	vs := r.PostForm[name]
	if len(vs) != 1 || len(vs[0]) == 0 || len(vs[0]) > 6 {
		return 0, false
	}
	n := 0
	for _, d := range vs[0] {
		if d < '0' || d > '9' {
			return 0, false
		}
		n = n*10 + int(d-'0')
	}
	return n, true
}

// mine is c's answers to the questions snap shows, from 1; 0 for none.
func (s *Server) mine(c *client, snap *snapshot) (q, last int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if snap.state.Question != nil {
		q = c.answers[snap.state.Question.Number]
	}
	if snap.state.Last != nil {
		last = c.answers[snap.state.Last.Number]
	}
	return q, last
}

// stream sends the live state as server-sent events: the latest state
// whenever it changes, at most one every StreamInterval.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, c *client) {
	s.mu.Lock()
	if c.streams >= streamsPerClient || s.streams >= 2*s.cfg.MaxClients {
		s.mu.Unlock()
		http.Error(w, "too many open pages", http.StatusTooManyRequests)
		return
	}
	c.streams++
	s.streams++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		c.streams--
		s.streams--
		s.mu.Unlock()
	}()
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	write := func(b []byte) bool {
		rc.SetWriteDeadline(time.Now().Add(writeWait))
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !write([]byte("retry: 3000\n\n")) {
		return
	}
	beat := time.NewTicker(heartbeat)
	defer beat.Stop()
	var sent uint64
	for {
		// Load the channel before the state: a Publish after this
		// closes the channel, so no state is missed.
		changed := *s.changed.Load()
		snap := s.live.Load()
		if snap.version != sent {
			msg := append([]byte("data: "), s.message(c, snap)...)
			if !write(append(msg, "\n\n"...)) {
				return
			}
			sent = snap.version
			pause := time.NewTimer(s.cfg.StreamInterval)
			select {
			case <-pause.C:
			case <-r.Context().Done():
				pause.Stop()
				return
			case <-s.done:
				pause.Stop()
				return
			}
			continue
		}
		select {
		case <-changed:
		case <-beat.C:
			if !write([]byte(": still here\n\n")) {
				return
			}
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
	}
}
