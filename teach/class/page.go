package class

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"strings"
)

// The page, its script and its style: served from here, so that the
// Content-Security-Policy can allow the server's own files and nothing
// inline.
var (
	//go:embed static/page.html
	pageHTML string
	//go:embed static/denied.html
	deniedHTML string
	//go:embed static/app.js
	appJS []byte
	//go:embed static/app.css
	appCSS []byte
)

var (
	pageTmpl = template.Must(template.New("page").Funcs(template.FuncMap{
		"inc":         func(i int) int { return i + 1 },
		"choiceClass": choiceClass,
		"status":      status,
		"lastStatus":  status,
	}).Parse(pageHTML))
	deniedTmpl = template.Must(template.New("denied").Parse(deniedHTML))
)

// pageData is what the page's template renders: the shared state and the
// student's own answers.
type pageData struct {
	State          wireState
	Mine, MineLast int
}

// choiceClass is how a choice's button looks: the student's, the right
// one, the student's wrong one. The page's script does the same.
func choiceClass(q *wireQuestion, mine, n int) string {
	var cl []string
	if n == mine {
		cl = append(cl, "mine")
	}
	if q.Answer > 0 && n == q.Answer {
		cl = append(cl, "right")
	} else if q.Answer > 0 && n == mine {
		cl = append(cl, "wrong")
	}
	return strings.Join(cl, " ")
}

// status says where a student is with a question; the event stream sends
// it too, so the page's script never words it itself.
func status(q *wireQuestion, mine int) string {
	if q == nil {
		return ""
	}
	switch {
	case q.Answer == 0 && mine == 0:
		return "Tap your answer."
	case q.Answer == 0:
		return fmt.Sprintf("You answered %d. Wait for the teacher to reveal the answer.", mine)
	case mine == q.Answer:
		return fmt.Sprintf("Right: the answer is %d.", q.Answer)
	case mine > 0:
		return fmt.Sprintf("You answered %d; the answer is %d.", mine, q.Answer)
	}
	return fmt.Sprintf("The answer is %d.", q.Answer)
}

// page renders the student page with the latest state.
func (s *Server) page(w http.ResponseWriter, c *client) {
	snap := s.live.Load()
	mine, last := s.mine(c, snap)
	var b bytes.Buffer
	if err := pageTmpl.Execute(&b, pageData{State: snap.state, Mine: mine, MineLast: last}); err != nil {
		http.Error(w, "the page failed to render", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes())
}

// forbidden is the answer to a request without a valid code: 403, with a
// form to type the code in.
func (s *Server) forbidden(w http.ResponseWriter, why string) {
	if why == "" {
		why = "This is a class in progress: join with the link or the code your teacher shows."
	}
	s.plain(w, http.StatusForbidden, why)
}

// full turns a student away when the class has as many as it takes.
func (s *Server) full(w http.ResponseWriter) {
	s.plain(w, http.StatusServiceUnavailable, fmt.Sprintf("The class is full (%d students); ask your teacher.", s.cfg.MaxClients))
}

func (s *Server) plain(w http.ResponseWriter, code int, msg string) {
	var b bytes.Buffer
	deniedTmpl.Execute(&b, msg)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	w.Write(b.Bytes())
}

// message is what c is sent of snap as JSON: the shared state, its
// version, and c's own answers and where c stands with the questions.
func (s *Server) message(c *client, snap *snapshot) []byte {
	q, last := s.mine(c, snap)
	own, _ := json.Marshal(struct {
		V          uint64 `json:"v"`
		Mine       int    `json:"mine"`
		MineLast   int    `json:"mineLast"`
		Status     string `json:"status"`
		StatusLast string `json:"statusLast"`
	}{snap.version, q, last, status(snap.state.Question, q), status(snap.state.Last, last)})
	// Splice the shared state in: it was marshalled once for everyone.
	b := append(own[:len(own)-1], `,"state":`...)
	b = append(b, snap.json...)
	return append(b, '}')
}
