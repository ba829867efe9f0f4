package class

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

const testCode = "TESTCODE"

// fakeClock is the rate limits' clock, moved by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *fakeClock { return &fakeClock{t: time.Date(2026, 9, 1, 9, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newServer(t testing.TB, cfg Config) (*Server, *fakeClock) {
	t.Helper()
	clock := newClock()
	if cfg.Code == "" {
		cfg.Code = testCode
	}
	cfg.Now = clock.Now
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, clock
}

// request serves one request from addr (a student's address), with the
// cookie if there is one.
func request(s *Server, method, target, body string, ck *http.Cookie) *httptest.ResponseRecorder {
	var r *http.Request
	if body != "" || method == http.MethodPost {
		r = httptest.NewRequest(method, target, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		r = httptest.NewRequest(method, target, nil)
	}
	if ck != nil {
		r.AddCookie(ck)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

// join joins as a new student and returns the cookie.
func join(t testing.TB, s *Server) *http.Cookie {
	t.Helper()
	w := request(s, http.MethodGet, "/?code="+testCode, "", nil)
	if w.Code != http.StatusSeeOther {
		t.Fatalf("joining: %d %s", w.Code, w.Body)
	}
	cks := w.Result().Cookies()
	if len(cks) != 1 {
		t.Fatalf("joining set %d cookies", len(cks))
	}
	return cks[0]
}

func question(n int, choices ...string) *Question {
	return &Question{Number: n, Text: "Where does G2 go?", Choices: choices}
}

func answerBody(q, choice string) string {
	return url.Values{"q": {q}, "choice": {choice}}.Encode()
}

// Every path needs the code: without it, or with a wrong one or a cookie
// the server did not issue, the answer is 403 and nothing is recorded.
func TestClassNoCodeIsForbidden(t *testing.T) {
	s, _ := newServer(t, Config{})
	s.Publish(Live{Question: question(1, "a", "b")})
	forged := &http.Cookie{Name: cookieName, Value: "0123456789abcdef0123456789abcdef"}
	for _, ck := range []*http.Cookie{nil, forged} {
		for _, path := range []string{"/", "/events", "/state", "/app.js", "/app.css", "/timeline.svg", "/nosuch", "/?code="} {
			if w := request(s, http.MethodGet, path, "", ck); w.Code != http.StatusForbidden {
				t.Errorf("GET %s (cookie %v): %d, want 403", path, ck != nil, w.Code)
			}
		}
		if w := request(s, http.MethodPost, "/answer", answerBody("1", "1"), ck); w.Code != http.StatusForbidden {
			t.Errorf("POST /answer (cookie %v): %d, want 403", ck != nil, w.Code)
		}
	}
	for _, code := range []string{"WRONG", testCode + "X", "TESTCOD", strings.Repeat("A", 100)} {
		if w := request(s, http.MethodGet, "/?code="+code, "", nil); w.Code != http.StatusForbidden || len(w.Result().Cookies()) != 0 {
			t.Errorf("GET /?code=%s: %d with cookies %v, want 403 and none", code, w.Code, w.Result().Cookies())
		}
	}
	if s.Joined() != 0 || s.Tally(1) != nil {
		t.Errorf("strangers joined %d or answered %v", s.Joined(), s.Tally(1))
	}
}

// The code comes once, as ?code= (any case: it is typed on phones); the
// cookie carries the student from then on, and a student who comes back
// with the link is the same student.
func TestClassCodeThenCookie(t *testing.T) {
	s, _ := newServer(t, Config{})
	s.Publish(Live{Title: "tour — A tour"})
	w := request(s, http.MethodGet, "/?code="+strings.ToLower(testCode), "", nil)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/" {
		t.Fatalf("join: %d to %q, want 303 to /", w.Code, w.Header().Get("Location"))
	}
	ck := w.Result().Cookies()[0]
	if !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode || ck.Path != "/" {
		t.Errorf("cookie %+v: want HttpOnly, SameSite=Strict, Path=/", ck)
	}
	page := request(s, http.MethodGet, "/", "", ck)
	if page.Code != http.StatusOK || !strings.Contains(page.Body.String(), "tour — A tour") {
		t.Fatalf("the page with the cookie: %d\n%s", page.Code, page.Body)
	}
	r := httptest.NewRequest(http.MethodGet, "/?code="+testCode, nil)
	r.AddCookie(ck)
	again := httptest.NewRecorder()
	s.ServeHTTP(again, r)
	if again.Code != http.StatusSeeOther || again.Result().Cookies()[0].Value != ck.Value || s.Joined() != 1 {
		t.Errorf("coming back: %d, cookie %v, %d joined; want the same student", again.Code, again.Result().Cookies(), s.Joined())
	}
}

// An answer to the open question is recorded once: 204, then 409 for a
// second; a question that is not open (another, revealed, none) is 409.
func TestClassAnswer(t *testing.T) {
	s, _ := newServer(t, Config{})
	a, b := join(t, s), join(t, s)
	if w := request(s, http.MethodPost, "/answer", answerBody("1", "1"), a); w.Code != http.StatusConflict {
		t.Errorf("an answer with no question open: %d, want 409", w.Code)
	}
	s.Publish(Live{Question: question(1, "P0's runnext", "P0's ring", "the global queue")})
	if w := request(s, http.MethodPost, "/answer", answerBody("1", "2"), a); w.Code != http.StatusNoContent {
		t.Fatalf("answer: %d %s, want 204", w.Code, w.Body)
	}
	if w := request(s, http.MethodPost, "/answer", answerBody("1", "3"), a); w.Code != http.StatusConflict {
		t.Errorf("a second answer: %d, want 409", w.Code)
	}
	if w := request(s, http.MethodPost, "/answer", answerBody("2", "1"), b); w.Code != http.StatusConflict {
		t.Errorf("an answer to a question not open: %d, want 409", w.Code)
	}
	if got := s.Tally(1); !slices.Equal(got, []int{0, 1, 0}) {
		t.Fatalf("tally %v, want [0 1 0]", got)
	}
	s.Publish(Live{Question: question(1, "P0's runnext", "P0's ring", "the global queue"), Reveal: &Reveal{Answer: 0}})
	if w := request(s, http.MethodPost, "/answer", answerBody("1", "1"), b); w.Code != http.StatusConflict {
		t.Errorf("an answer after the reveal: %d, want 409", w.Code)
	}
	if got := s.Tally(1); !slices.Equal(got, []int{0, 1, 0}) {
		t.Errorf("tally %v after refused answers, want [0 1 0]", got)
	}
}

// Malformed answers are 400 and change nothing; other methods are 405.
func TestClassMalformedAnswer(t *testing.T) {
	s, _ := newServer(t, Config{})
	ck := join(t, s)
	s.Publish(Live{Question: question(1, "a", "b", "c")})
	for _, body := range []string{
		"", "q=1", "choice=1", "q=x&choice=1", "q=1&choice=x", "q=1&choice=0", "q=1&choice=4",
		"q=1&choice=-1", "q=1&q=1&choice=1", "q=1&choice=1&choice=2", "q=1&choice=1e3", "q=1&choice=%zz",
		"q=1&choice=9999999999",
	} {
		if w := request(s, http.MethodPost, "/answer", body, ck); w.Code != http.StatusBadRequest {
			t.Errorf("POST %q: %d, want 400", body, w.Code)
		}
	}
	// The fields must be posted, not put in the address.
	if w := request(s, http.MethodPost, "/answer?q=1&choice=1", "", ck); w.Code != http.StatusBadRequest {
		t.Errorf("an answer in the query: %d, want 400", w.Code)
	}
	r := httptest.NewRequest(http.MethodPost, "/answer", strings.NewReader("--x\r\n"))
	r.Header.Set("Content-Type", "multipart/form-data; boundary=x")
	r.AddCookie(ck)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != http.StatusBadRequest {
		t.Errorf("a multipart answer: %d, want 400", w.Code)
	}
	if w := request(s, http.MethodGet, "/answer", "", ck); w.Code != http.StatusMethodNotAllowed {
		t.Errorf("GET /answer: %d, want 405", w.Code)
	}
	if w := request(s, http.MethodPost, "/", "q=1&choice=1", ck); w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /: %d, want 405", w.Code)
	}
	if s.Tally(1) != nil {
		t.Errorf("malformed answers were counted: %v", s.Tally(1))
	}
}

// A body past the cap is 413, however it is shaped.
func TestClassOversizedAnswer(t *testing.T) {
	s, _ := newServer(t, Config{})
	ck := join(t, s)
	s.Publish(Live{Question: question(1, "a", "b")})
	for _, body := range []string{
		"q=1&choice=1&pad=" + strings.Repeat("x", 2*maxBody),
		strings.Repeat("q=1&", maxBody),
	} {
		if w := request(s, http.MethodPost, "/answer", body, ck); w.Code != http.StatusRequestEntityTooLarge {
			t.Errorf("a %d-byte answer: %d, want 413", len(body), w.Code)
		}
	}
	if s.Tally(1) != nil {
		t.Errorf("an oversized answer was counted: %v", s.Tally(1))
	}
}

// A posted form from another site is refused even with the cookie (the
// cookie is SameSite=Strict too).
func TestClassAnswerFromAnotherOrigin(t *testing.T) {
	s, _ := newServer(t, Config{})
	ck := join(t, s)
	s.Publish(Live{Question: question(1, "a", "b")})
	r := httptest.NewRequest(http.MethodPost, "/answer", strings.NewReader(answerBody("1", "1")))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("Origin", "http://evil.example")
	r.AddCookie(ck)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != http.StatusForbidden || s.Tally(1) != nil {
		t.Errorf("an answer from another origin: %d, tally %v", w.Code, s.Tally(1))
	}
}

// hostile is scenario text that tries to run script on the students'
// page.
const hostile = `</p><script>alert(1)</script><img src=x onerror=alert(2)>"'&`

func hostileLive() Live {
	return Live{
		Title: hostile, Event: hostile, Note: hostile, Queues: hostile,
		Procs:    []ProcRow{{P: hostile, State: hostile, M: hostile, G: hostile, Next: hostile, Ring: hostile}},
		Question: &Question{Number: 1, Text: hostile, Choices: []string{hostile, "b"}},
	}
}

// Scenario text reaches the page escaped by html/template, and the JSON
// of /state and the event stream with no markup character at all, and
// comes back out of the JSON as the very text (the script sets it as
// textContent).
func TestClassScenarioTextIsEscaped(t *testing.T) {
	s, _ := newServer(t, Config{})
	ck := join(t, s)
	s.Publish(hostileLive())
	page := request(s, http.MethodGet, "/", "", ck).Body.String()
	for _, bad := range []string{"<script>alert", "<img src=x", "</p><script"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q unescaped", bad)
		}
	}
	if n := strings.Count(page, "&lt;script&gt;alert(1)&lt;/script&gt;"); n < 8 {
		t.Errorf("the page shows the text escaped %d times, want every place (8+)", n)
	}
	state := request(s, http.MethodGet, "/state", "", ck)
	if ct := state.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("/state is %q", ct)
	}
	checkJSON(t, "/state", state.Body.Bytes())

	ts := httptest.NewServer(s)
	defer ts.Close()
	checkJSON(t, "the event stream", firstEvent(t, ts.URL, ck))
}

func checkJSON(t *testing.T, where string, data []byte) {
	t.Helper()
	if strings.ContainsAny(string(data), "<>") {
		t.Errorf("%s carries markup characters: %s", where, data)
	}
	var msg struct {
		State struct {
			Title, Note string
			Question    struct{ Choices []string }
		}
	}
	if err := json.Unmarshal(data, &msg); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	if msg.State.Title != hostile || msg.State.Note != hostile || msg.State.Question.Choices[0] != hostile {
		t.Errorf("%s does not give the text back: %+v", where, msg.State)
	}
}

// firstEvent reads the first data event of the stream.
func firstEvent(t *testing.T, base string, ck *http.Cookie) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // a failsafe
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/events", nil)
	req.AddCookie(ck)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("/events: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			return []byte(data)
		}
	}
	t.Fatalf("the stream ended without an event: %v", sc.Err())
	return nil
}

// Every answer carries the strict policy and nosniff, 403s and 404s too;
// the page has no inline script, style or handler for it to need.
func TestClassSecurityHeaders(t *testing.T) {
	s, _ := newServer(t, Config{})
	ck := join(t, s)
	s.Publish(Live{Question: question(1, "a", "b"), Note: "n", Timeline: []byte("<svg xmlns='http://www.w3.org/2000/svg'/>")})
	for _, c := range []struct {
		path string
		ck   *http.Cookie
		code int
	}{{"/", ck, 200}, {"/", nil, 403}, {"/app.js", ck, 200}, {"/timeline.svg", ck, 200}, {"/nosuch", ck, 404}, {"/state", ck, 200}} {
		w := request(s, http.MethodGet, c.path, "", c.ck)
		h := w.Header()
		csp := h.Get("Content-Security-Policy")
		if w.Code != c.code || !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "script-src 'self'") ||
			strings.Contains(csp, "unsafe") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: %d, CSP %q", c.path, w.Code, csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: nosniff %q, referrer %q", c.path, h.Get("X-Content-Type-Options"), h.Get("Referrer-Policy"))
		}
	}
	page := request(s, http.MethodGet, "/", "", ck).Body.String()
	if strings.Count(page, "<script") != 1 || !strings.Contains(page, `<script src="/app.js" defer></script>`) {
		t.Errorf("the page has a script other than /app.js:\n%s", page)
	}
	if regexp.MustCompile(`(?i)\son[a-z]+=|<style|\sstyle=|javascript:`).MatchString(page) {
		t.Errorf("the page has inline style or handlers:\n%s", page)
	}
	if !strings.Contains(page, `<meta name="viewport"`) || !strings.Contains(page, `<noscript><meta http-equiv="refresh"`) {
		t.Errorf("the page lacks the viewport or the refresh without script")
	}
	if regexp.MustCompile(`\.innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(`).Match(appJS) {
		t.Errorf("app.js writes markup")
	}
}

// Without the page's script the form still answers: it posts with
// back=1 and is sent back to the page, which says what was recorded.
func TestClassAnswerWithoutScript(t *testing.T) {
	s, _ := newServer(t, Config{})
	ck := join(t, s)
	s.Publish(Live{Question: question(1, "runnext", "ring")})
	page := request(s, http.MethodGet, "/", "", ck).Body.String()
	for _, want := range []string{`<form id="answer" method="post" action="/answer">`, `name="q" value="1"`, `name="back" value="1"`, `name="choice" value="2"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	w := request(s, http.MethodPost, "/answer", "q=1&choice=2&back=1", ck)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/" {
		t.Fatalf("a form answer: %d to %q, want 303 to /", w.Code, w.Header().Get("Location"))
	}
	page = request(s, http.MethodGet, "/", "", ck).Body.String()
	if !strings.Contains(page, "You answered 2.") || !strings.Contains(page, `class="mine" disabled`) {
		t.Errorf("the page does not say what was answered:\n%s", page)
	}
	s.Publish(Live{Question: question(1, "runnext", "ring"), Reveal: &Reveal{Answer: 0, Why: []string{"event 5: G2 goes into P0's runnext"}}})
	page = request(s, http.MethodGet, "/", "", ck).Body.String()
	if !strings.Contains(page, "You answered 2; the answer is 1.") || !strings.Contains(page, "G2 goes into P0&#39;s runnext") {
		t.Errorf("the reveal is not on the page:\n%s", page)
	}
	s.Publish(Live{Event: "event 6"})
	page = request(s, http.MethodGet, "/", "", ck).Body.String()
	if !strings.Contains(page, "Question 1, answered") || !strings.Contains(page, "You answered 2; the answer is 1.") {
		t.Errorf("the last question's answer went with it:\n%s", page)
	}
}

// Per student: a burst, then the rate; the clock is the server's, moved
// by hand.
func TestClassRateLimitPerStudent(t *testing.T) {
	s, clock := newServer(t, Config{ClientBurst: 3, ClientRate: 1})
	ck, other := join(t, s), join(t, s)
	for i := range 3 {
		if w := request(s, http.MethodGet, "/state", "", ck); w.Code != http.StatusOK {
			t.Fatalf("request %d of the burst: %d", i+1, w.Code)
		}
	}
	if w := request(s, http.MethodGet, "/state", "", ck); w.Code != http.StatusTooManyRequests {
		t.Fatalf("past the burst: %d, want 429", w.Code)
	}
	if w := request(s, http.MethodGet, "/state", "", other); w.Code != http.StatusOK {
		t.Errorf("another student is held up by the first: %d", w.Code)
	}
	clock.Advance(time.Second)
	if w := request(s, http.MethodGet, "/state", "", ck); w.Code != http.StatusOK {
		t.Errorf("a second later: %d, want 200", w.Code)
	}
	if w := request(s, http.MethodGet, "/state", "", ck); w.Code != http.StatusTooManyRequests {
		t.Errorf("a second later, twice: %d, want 429", w.Code)
	}
}

// The whole server: a burst shared by everyone, joins included.
func TestClassRateLimitGlobal(t *testing.T) {
	s, clock := newServer(t, Config{GlobalBurst: 4, GlobalRate: 2})
	a, b := join(t, s), join(t, s) // two tokens
	for _, ck := range []*http.Cookie{a, b} {
		if w := request(s, http.MethodGet, "/state", "", ck); w.Code != http.StatusOK {
			t.Fatalf("within the burst: %d", w.Code)
		}
	}
	if w := request(s, http.MethodGet, "/state", "", a); w.Code != http.StatusTooManyRequests {
		t.Fatalf("past the server's burst: %d, want 429", w.Code)
	}
	if w := request(s, http.MethodGet, "/?code="+testCode, "", nil); w.Code != http.StatusTooManyRequests {
		t.Errorf("a join past the server's burst: %d, want 429", w.Code)
	}
	clock.Advance(time.Second)
	for _, ck := range []*http.Cookie{a, b} {
		if w := request(s, http.MethodGet, "/state", "", ck); w.Code != http.StatusOK {
			t.Errorf("a second later: %d, want 200", w.Code)
		}
	}
}

// Wrong codes from one address run out; then even the right one waits,
// so the code cannot be guessed by trying.
func TestClassWrongCodesAreLimited(t *testing.T) {
	s, clock := newServer(t, Config{})
	for i := range failBurst {
		if w := request(s, http.MethodGet, "/?code=GUESS"+string(rune('A'+i)), "", nil); w.Code != http.StatusForbidden {
			t.Fatalf("guess %d: %d, want 403", i+1, w.Code)
		}
	}
	if w := request(s, http.MethodGet, "/?code="+testCode, "", nil); w.Code != http.StatusTooManyRequests {
		t.Fatalf("the right code after %d wrong ones: %d, want 429", failBurst, w.Code)
	}
	clock.Advance(6 * time.Second)
	if w := request(s, http.MethodGet, "/?code="+testCode, "", nil); w.Code != http.StatusSeeOther {
		t.Errorf("six seconds later: %d, want 303", w.Code)
	}
}

// The class takes at most MaxClients students; one who joined comes back.
func TestClassClientCap(t *testing.T) {
	s, _ := newServer(t, Config{MaxClients: 3})
	var cks []*http.Cookie
	for range 3 {
		cks = append(cks, join(t, s))
	}
	w := request(s, http.MethodGet, "/?code="+testCode, "", nil)
	if w.Code != http.StatusServiceUnavailable || len(w.Result().Cookies()) != 0 || !strings.Contains(w.Body.String(), "full") {
		t.Fatalf("a fourth student: %d %s, want 503 saying the class is full", w.Code, w.Body)
	}
	if s.Joined() != 3 {
		t.Errorf("%d joined, want 3", s.Joined())
	}
	r := httptest.NewRequest(http.MethodGet, "/?code="+testCode, nil)
	r.AddCookie(cks[0])
	back := httptest.NewRecorder()
	s.ServeHTTP(back, r)
	if back.Code != http.StatusSeeOther {
		t.Errorf("a student who joined, coming back: %d, want 303", back.Code)
	}
}

// Publish takes no lock a request takes: with every such lock held, as a
// crowd of requests would, it still returns. (The deadline is a failsafe
// against a hang, not a measurement.)
func TestClassPublishNeverWaitsOnRequests(t *testing.T) {
	s, _ := newServer(t, Config{})
	ck := join(t, s)
	s.Publish(Live{Question: question(1, "a", "b")})
	request(s, http.MethodPost, "/answer", answerBody("1", "1"), ck)
	s.mu.Lock()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 100 {
			s.Publish(Live{Event: strings.Repeat("x", i+1), Question: question(1, "a", "b")})
		}
		s.Publish(Live{Question: question(1, "a", "b"), Reveal: &Reveal{Answer: 0}})
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Publish waited on a lock that requests hold")
	}
	s.mu.Unlock()
	if v := s.live.Load().version; v != 103 {
		t.Errorf("version %d after 101 changes to version 2, want 103", v)
	}
}

// Publishing what is already published sends nothing new.
func TestClassPublishSkipsRepeats(t *testing.T) {
	s, _ := newServer(t, Config{})
	l := Live{Title: "t", Procs: []ProcRow{{P: "P0"}}, Timeline: []byte("<svg/>")}
	s.Publish(l)
	v := s.live.Load().version
	s.Publish(l)
	if s.live.Load().version != v {
		t.Errorf("a repeat made a new version")
	}
	l.Timeline = []byte("<svg></svg>")
	s.Publish(l)
	if s.live.Load().version != v+1 || s.live.Load().state.Timeline != 2 {
		t.Errorf("a new timeline: version %d, timeline %d", s.live.Load().version, s.live.Load().state.Timeline)
	}
}

// The summary counts every answer by choice and the share right, and the
// CSV keeps a spreadsheet from reading scenario text as a formula.
func TestClassSummaryAndCSV(t *testing.T) {
	s, _ := newServer(t, Config{})
	q1 := &Question{Number: 1, Text: "Where does G2 go?", Choices: []string{"P0's runnext", "=cmd|' /C calc'!A0", "the global queue"}}
	s.Publish(Live{Question: q1})
	for _, c := range []string{"1", "1", "1", "2"} {
		if w := request(s, http.MethodPost, "/answer", answerBody("1", c), join(t, s)); w.Code != http.StatusNoContent {
			t.Fatal(w.Code)
		}
	}
	s.Publish(Live{Question: q1, Reveal: &Reveal{Answer: 0}})
	s.Publish(Live{Question: &Question{Number: 2, Text: "Who runs next?", Choices: []string{"G3", "G4"}}})
	request(s, http.MethodPost, "/answer", answerBody("2", "2"), join(t, s))
	s.Publish(Live{Event: "later"})
	sum := s.Summary()
	if len(sum) != 2 || sum[0].Answered != 4 || sum[0].Right != 3 || sum[1].Answer != -1 || sum[1].Answered != 1 {
		t.Fatalf("summary %+v", sum)
	}
	if pct, ok := sum[0].PercentRight(); !ok || pct != 75 {
		t.Errorf("question 1: %v%% right (%v), want 75", pct, ok)
	}
	var b strings.Builder
	if err := s.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	want := `question,text,answered,right,percent_right,answer,choice_1,count_1,choice_2,count_2,choice_3,count_3
1,Where does G2 go?,4,3,75,P0's runnext,P0's runnext,3,'=cmd|' /C calc'!A0,1,the global queue,0
2,Who runs next?,1,,,,G3,0,G4,1,,
`
	if b.String() != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", b.String(), want)
	}
}

// Scenario text is cut to the bounds before every student gets a copy.
func TestClassLiveIsBounded(t *testing.T) {
	s, _ := newServer(t, Config{})
	l := Live{Note: strings.Repeat("é", maxText), Timeline: make([]byte, maxTimeline+1)}
	for range maxProcs + 10 {
		l.Procs = append(l.Procs, ProcRow{P: "P"})
	}
	l.Question = &Question{Number: 1, Text: "q", Choices: strings.Split("abcdefghijkl", "")}
	s.Publish(l)
	st := s.live.Load().state
	if len(st.Note) > maxText+len("…") || len(st.Procs) != maxProcs || st.More != 10 || len(st.Question.Choices) != maxChoices || st.Timeline != 0 {
		t.Errorf("note %d bytes, %d Ps (+%d), %d choices, timeline %d", len(st.Note), len(st.Procs), st.More, len(st.Question.Choices), st.Timeline)
	}
}

func TestClassCodes(t *testing.T) {
	seen := map[string]bool{}
	for range 50 {
		c := NewCode()
		if len(c) != 8 || strings.Trim(c, codeAlphabet) != "" || CheckCode(c) != nil {
			t.Fatalf("code %q", c)
		}
		seen[c] = true
	}
	if len(seen) < 50 {
		t.Errorf("50 codes drawn, %d distinct", len(seen))
	}
	for _, bad := range []string{"", "abc", strings.Repeat("a", 33), "ab cd", "abcd/", "abcdé"} {
		if CheckCode(bad) == nil {
			t.Errorf("code %q accepted", bad)
		}
		if _, err := New(Config{Code: bad}); bad != "" && err == nil {
			t.Errorf("New took code %q", bad)
		}
	}
}

// The QR code is a QR code: a square of 21+4k modules with the three
// finder patterns in its corners.
func TestClassQR(t *testing.T) {
	bits, err := QR("http://192.168.1.20:7010/?code=K7M2PQ9X")
	if err != nil {
		t.Fatal(err)
	}
	n := len(bits)
	if n < 21 || (n-21)%4 != 0 {
		t.Fatalf("%d modules a side", n)
	}
	finder := []string{"#######", "#.....#", "#.###.#", "#.###.#", "#.###.#", "#.....#", "#######"}
	for _, corner := range [][2]int{{0, 0}, {0, n - 7}, {n - 7, 0}} {
		for y, row := range finder {
			for x, want := range row {
				if len(bits[corner[0]+y]) != n || bits[corner[0]+y][corner[1]+x] != (want == '#') {
					t.Fatalf("no finder pattern at %v", corner)
				}
			}
		}
	}
}
