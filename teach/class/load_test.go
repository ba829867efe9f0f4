package class

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// 300 students on loopback join, open the live page's stream and answer
// one question at once, while the teacher's side keeps publishing and
// reading the tally, and some students' pages stop reading their stream.
// Every answer counts exactly once, and every Publish returns.
//
// Bounded: 300 students, 4 requests and a stream each, a publish for each
// answer; the context's deadline is a failsafe against a hang, not a
// measurement.
func TestClassLoad300(t *testing.T) {
	const students, choices, stalled = 300, 4, 30
	s, _ := newServer(t, Config{MaxClients: students})
	ts := httptest.NewServer(s) // binds 127.0.0.1
	defer ts.Close()
	if !strings.HasPrefix(ts.URL, "http://127.0.0.1:") {
		t.Fatalf("the load test runs on loopback only, not %s", ts.URL)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	q := &Question{Number: 1, Text: "Where does G2 go?", Choices: []string{"a", "b", "c", "d"}}
	s.Publish(Live{Title: "tour", Question: q})

	noRedirect := &http.Client{
		Transport:     &http.Transport{MaxIdleConnsPerHost: 64},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	defer noRedirect.CloseIdleConnections()
	var streaming, answered sync.WaitGroup
	streaming.Add(students)
	answered.Add(students)
	release := make(chan struct{}) // closes the streams at the end
	errs := make(chan error, students)
	answers := make(chan struct{}, students) // one for each answer recorded
	for i := range students {
		go func() {
			defer answered.Done()
			errs <- student(ctx, noRedirect, ts.URL, i, choices, i < stalled, &streaming, answers, release)
		}()
	}

	// The teacher's side: publishes a frame on each answer, while the
	// others join and answer, and reads the room as the UI does.
	var published atomic.Int64
	teacher := make(chan struct{})
	go func() {
		defer close(teacher)
		for i := range students {
			select {
			case <-answers:
			case <-ctx.Done():
				return
			}
			s.Publish(Live{Title: "tour", Event: fmt.Sprintf("frame %d", i), Note: strings.Repeat("n", maxText), Question: q})
			s.Tally(1)
			s.Joined()
			published.Add(1)
		}
	}()

	streaming.Wait() // every student has a stream open and has answered
	close(release)
	answered.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	select {
	case <-teacher:
	case <-ctx.Done():
		t.Fatalf("Publish blocked: %d of %d returned", published.Load(), students)
	}
	if published.Load() != students {
		t.Errorf("%d publishes of %d returned", published.Load(), students)
	}
	want := make([]int, choices)
	for i := range students {
		want[i%choices]++
	}
	if got := s.Tally(1); !slices.Equal(got, want) {
		t.Errorf("tally %v, want %v: answers lost or doubled", got, want)
	}
	if s.Joined() != students {
		t.Errorf("%d joined, want %d", s.Joined(), students)
	}
}

// student joins, opens the stream and reads the question from it, answers
// choice i%choices, then answers again (which must be refused), and
// keeps the stream open, reading it or, stalled, not, until release.
func student(ctx context.Context, c *http.Client, base string, i, choices int, stall bool, streaming *sync.WaitGroup, answers chan<- struct{}, release <-chan struct{}) error {
	signalled := false
	defer func() {
		if !signalled {
			streaming.Done()
		}
	}()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/?code="+testCode, nil)
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("student %d joining: %w", i, err)
	}
	resp.Body.Close()
	cks := resp.Cookies()
	if resp.StatusCode != http.StatusSeeOther || len(cks) != 1 {
		return fmt.Errorf("student %d joining: %d", i, resp.StatusCode)
	}
	ck := cks[0]
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	req, _ = http.NewRequestWithContext(sctx, http.MethodGet, base+"/events", nil)
	req.AddCookie(ck)
	stream, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("student %d's stream: %w", i, err)
	}
	defer stream.Body.Close()
	if stream.StatusCode != http.StatusOK {
		return fmt.Errorf("student %d's stream: %d", i, stream.StatusCode)
	}
	lines := bufio.NewReader(stream.Body)
	for {
		line, err := lines.ReadString('\n')
		if err != nil {
			return fmt.Errorf("student %d's stream ended: %w", i, err)
		}
		if strings.HasPrefix(line, "data: ") && strings.Contains(line, `"n":1`) {
			break
		}
	}
	post := func() (int, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/answer", strings.NewReader(answerBody("1", fmt.Sprint(i%choices+1))))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(ck)
		resp, err := c.Do(req)
		if err != nil {
			return 0, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	if code, err := post(); err != nil || code != http.StatusNoContent {
		return fmt.Errorf("student %d's answer: %d %v", i, code, err)
	}
	answers <- struct{}{}
	if code, err := post(); err != nil || code != http.StatusConflict {
		return fmt.Errorf("student %d's second answer: %d %v, want 409", i, code, err)
	}
	signalled = true
	streaming.Done()
	if stall {
		<-release // a page that stopped reading: its stream fills up
		return nil
	}
	go io.Copy(io.Discard, lines) // a page that keeps up
	<-release
	return nil
}
