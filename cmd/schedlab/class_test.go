package main

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/teach/class"
)

// signalScreen is a simulation screen that says when the UI has started
// on it, so that keys can be typed then, one at a time.
type signalScreen struct {
	tcell.SimulationScreen
	started chan struct{}
}

func (s *signalScreen) Init() error {
	err := s.SimulationScreen.Init()
	close(s.started)
	return err
}

// schedlab class tour, from the teacher's keys and a student's requests:
// the address printed works, the student joins with the code, sees the
// question the UI reaches, answers, and sees the reveal; at the end the
// summary is printed, the CSV written, and the server is gone.
func TestClassCommand(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a failsafe
	defer cancel()
	scr := &signalScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8"), started: make(chan struct{})}
	screenFor = func() tcell.Screen { return scr }
	ready := make(chan *class.Server, 1)
	classReady = func(s *class.Server) { ready <- s }
	t.Cleanup(func() { screenFor, classReady = nil, nil })
	csv := filepath.Join(t.TempDir(), "answers.csv")
	var out, errOut bytes.Buffer
	exit := make(chan int, 1)
	go func() {
		exit <- execute([]string{"class", "tour", "--listen", "127.0.0.1:0", "--code", "TEST1234", "--csv", csv}, &out, &errOut)
	}()
	var srv *class.Server
	select {
	case srv = <-ready:
	case code := <-exit:
		t.Fatalf("class ended with %d before serving: %s", code, errOut.String())
	case <-ctx.Done():
		t.Fatal("class did not start serving")
	}
	join := srv.JoinURL()
	if !strings.HasPrefix(join, "http://127.0.0.1:") || !strings.HasSuffix(join, "/?code=TEST1234") {
		t.Fatalf("join URL %q", join)
	}
	<-scr.started
	base := strings.TrimSuffix(join, "/?code=TEST1234")

	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(join)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || len(resp.Cookies()) != 1 {
		t.Fatalf("joining: %d", resp.StatusCode)
	}
	ck := resp.Cookies()[0]
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/events", nil)
	req.AddCookie(ck)
	stream, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	events := bufio.NewScanner(stream.Body)
	events.Buffer(nil, 1<<20)
	waitFor := func(want string) string {
		t.Helper()
		for events.Scan() {
			if line := events.Text(); strings.HasPrefix(line, "data: ") && strings.Contains(line, want) {
				return line
			}
		}
		t.Fatalf("the stream ended before %s: %v", want, events.Err())
		return ""
	}
	waitFor(`"title":"tour — `)

	scr.InjectKey(tcell.KeyRune, 'l', tcell.ModNone) // the first question
	waitFor(`"text":"Where does G2 go?"`)
	answer, _ := http.NewRequest(http.MethodPost, base+"/answer", strings.NewReader("q=1&choice=1"))
	answer.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	answer.AddCookie(ck)
	resp, err = c.Do(answer)
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("answering: %v %v", resp, err)
	}
	resp.Body.Close()
	scr.InjectKey(tcell.KeyEnter, 0, tcell.ModNone) // reveal
	waitFor(`"why":[`)
	scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)

	select {
	case code := <-exit:
		if code != 0 {
			t.Fatalf("class: exit %d, %s", code, errOut.String())
		}
	case <-ctx.Done():
		t.Fatal("class did not end on q")
	}
	for _, want := range []string{
		"students join at  " + join + "\n", "join code         TEST1234\n", "--listen 0.0.0.0:",
		"class: 1 joined, 1 question asked\n", "  1. Where does G2 go? — 1 answered, ", "the answers are in " + csv,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output lacks %q:\n%s", want, out.String())
		}
	}
	data, err := os.ReadFile(csv)
	if err != nil || !strings.HasPrefix(string(data), "question,text,answered,right,percent_right,answer,choice_1,count_1,") ||
		!strings.Contains(string(data), "\n1,Where does G2 go?,1,") {
		t.Errorf("the CSV (%v):\n%s", err, data)
	}
	if resp, err := http.Get(base + "/"); err == nil {
		resp.Body.Close()
		t.Errorf("the server still answers after the class ended: %d", resp.StatusCode)
	}
}

// On every address (0.0.0.0, ::), the address to share is one a phone
// can reach, not the unspecified one.
func TestClassShareHost(t *testing.T) {
	for _, ip := range []net.IP{net.IPv4zero, net.IPv6unspecified} {
		host, port, _ := net.SplitHostPort(shareHost(&net.TCPAddr{IP: ip, Port: 7010}))
		if a := net.ParseIP(host); port != "7010" || a == nil || a.IsUnspecified() {
			t.Errorf("listening on %v, students are sent to %s:%s", ip, host, port)
		}
	}
	if got := shareHost(&net.TCPAddr{IP: net.IPv4(192, 168, 1, 20), Port: 7010}); got != "192.168.1.20:7010" {
		t.Errorf("listening on 192.168.1.20:7010, students are sent to %s", got)
	}
}

// Bad flags are reported before anything listens or draws.
func TestClassFlagErrors(t *testing.T) {
	screenFor = func() tcell.Screen {
		t.Fatal("the UI started despite a bad flag")
		return nil
	}
	t.Cleanup(func() { screenFor = nil })
	for _, args := range [][]string{
		{"class", "tour", "--code", "ab"},
		{"class", "tour", "--code", "has space"},
		{"class", "tour", "--max-clients", "0"},
		{"class", "tour", "--csv", filepath.Join(t.TempDir(), "nosuch", "a.csv")},
		{"class", "tour", "--split", "raw,pool"},
		{"class"},
	} {
		code, _, errOut := cli(t, args...)
		if code != exitUsage || errOut == "" {
			t.Errorf("%v: exit %d, %q; want 2 with a message", args, code, errOut)
		}
	}
}
