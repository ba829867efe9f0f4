package class

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzRequest serves arbitrary requests, from a student who joined and
// from a stranger: whatever the method, path, query and body, the server
// answers with one of the statuses it means to, never panics, and records
// at most one answer, only from the student, only to the open question,
// only a choice it offers. (The event stream is left out: it waits for
// the class to end.)
func FuzzRequest(f *testing.F) {
	for _, seed := range []struct {
		method, target, body string
		joined               bool
	}{
		{"POST", "/answer", answerBody("1", "2"), true},
		{"POST", "/answer", answerBody("1", "2") + "&back=1", true},
		{"POST", "/answer", "q=1&q=1&choice=1", true},
		{"POST", "/answer", "--x\r\n", true},
		{"POST", "/answer", answerBody("1", "9"), false},
		{"GET", "/?code=" + testCode, "", false},
		{"GET", "/?code=wrong", "", false},
		{"GET", "/state", "", true},
		{"HEAD", "/timeline.svg", "", true},
		{"DELETE", "/", "", true},
		{"GET", "/app.js", "", true},
		{"GET", "/%2e%2e/etc/passwd", "", true},
	} {
		f.Add(seed.method, seed.target, seed.body, seed.joined)
	}
	statuses := map[int]bool{
		http.StatusOK: true, http.StatusNoContent: true, http.StatusSeeOther: true,
		http.StatusBadRequest: true, http.StatusForbidden: true, http.StatusNotFound: true,
		http.StatusMethodNotAllowed: true, http.StatusConflict: true,
		http.StatusRequestEntityTooLarge: true, http.StatusTooManyRequests: true,
		http.StatusServiceUnavailable: true,
	}
	f.Fuzz(func(t *testing.T, method, target, body string, joined bool) {
		if !validMethod(method) || !strings.HasPrefix(target, "/") || strings.HasPrefix(target, "/events") {
			return // not a request net/http would hand a handler, or the stream
		}
		r, err := http.NewRequest(method, "http://class.test"+target, strings.NewReader(body))
		if err != nil {
			return
		}
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		s, _ := newServer(t, Config{})
		s.Publish(Live{Question: question(1, "P0's runnext", "P0's ring", "the global queue")})
		if joined {
			r.AddCookie(join(t, s))
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if !statuses[w.Code] {
			t.Fatalf("%s %q: status %d", method, target, w.Code)
		}
		total := 0
		for _, n := range s.Tally(1) {
			total += n
		}
		if total > 1 || total == 1 && (!joined || w.Code != http.StatusNoContent && w.Code != http.StatusSeeOther) {
			t.Fatalf("%s %q (joined %v, status %d): tally %v", method, target, joined, w.Code, s.Tally(1))
		}
		for q := 2; q < 5; q++ {
			if got := s.Tally(q); got != nil {
				t.Fatalf("%s %q: an answer to question %d, not open: %v", method, target, q, got)
			}
		}
	})
}

// validMethod reports whether m is a method token net/http accepts.
func validMethod(m string) bool {
	if m == "" {
		return false
	}
	for _, c := range m {
		if c <= ' ' || c >= 0x7f || strings.ContainsRune("()<>@,;:\\\"/[]?={}", c) {
			return false
		}
	}
	return true
}
