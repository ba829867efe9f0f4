package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/gdamore/tcell/v2"
	"github.com/spf13/cobra"

	"github.com/schedlab/schedlab/teach/class"
)

// classFlags are schedlab class's: the UI's, less the split views, and
// the server's.
type classFlags struct {
	sim        simFlags
	view       viewFlags
	quiz       bool
	listen     string
	code       string
	maxClients int
	csv        string
}

func (f *classFlags) register(cmd *cobra.Command) {
	f.sim.register(cmd, "stop")
	f.view.register(cmd)
	fl := cmd.Flags()
	fl.BoolVar(&f.quiz, "quiz", false, "ask the model's own questions at its decisions too, not only the scenario's (ask:)")
	fl.StringVar(&f.listen, "listen", "127.0.0.1:7010", "the address to serve students on; 127.0.0.1 is this machine only, 0.0.0.0:7010 lets in the room's network")
	fl.StringVar(&f.code, "code", "", "the join code, 4 to 32 letters, digits, - or _ (default: eight random characters)")
	fl.IntVar(&f.maxClients, "max-clients", class.DefaultMaxClients, "the most students who can join")
	fl.StringVar(&f.csv, "csv", "", "at the end, write how the class answered (per question: answers per choice, % right) to this CSV file")
}

// classReady lets tests reach the server once it listens; nil otherwise.
var classReady func(srv *class.Server)

func newClassCmd(stdout io.Writer) *cobra.Command {
	var f classFlags
	cmd := &cobra.Command{
		Use:   "class NAME|FILE",
		Short: "Teach a scenario to a room: students follow on their phones and answer",
		Long: `class opens the terminal UI on a scenario, as tui does, and serves a page
that every student in the room opens on a phone or laptop: the current
event's sentence, the Ps and their queues, the note, a timeline, and when
the run reaches a question, the question with its choices. Each student
answers once; the UI shows how many joined and answered, and enter reveals
the answer with a bar per choice before the explanation.

The scenario's questions (ask:) are posed; with --quiz the model's own at
its decisions too. Before the UI starts, class prints the address to share
(with the join code in it) and the code; in the UI, u shows them with a QR
code. Every request needs the code; the server keeps nothing after it ends
except the CSV that --csv asks for, and prints the summary.`,
		Example:           "  schedlab class tour\n  schedlab class tour --listen 0.0.0.0:7010 --csv answers.csv\n  schedlab class steal --quiz --code DEMO2026",
		Args:              exactArgs("a scenario name or file"),
		ValidArgsFunction: completeScenario,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runClass(cmd, args[0], &f, stdout)
		},
	}
	f.register(cmd)
	return cmd
}

// runClass checks everything it can before it listens, listens before
// the UI starts (so the address printed works), and shuts the server
// down when the UI ends.
func runClass(cmd *cobra.Command, name string, f *classFlags, stdout io.Writer) error {
	over, err := f.sim.overrides(cmd)
	if err != nil {
		return err
	}
	opts, err := f.view.options()
	if err != nil {
		return err
	}
	if f.code != "" {
		if err := class.CheckCode(f.code); err != nil {
			return usageError{fmt.Errorf("--code: %w", err)}
		}
	}
	if f.maxClients < 1 || f.maxClients > 10000 {
		return usageError{fmt.Errorf("--max-clients %d: want 1 to 10000", f.maxClients)}
	}
	if f.csv != "" {
		// Found out now, not after the lecture.
		if fi, err := os.Stat(filepath.Dir(f.csv)); err != nil || !fi.IsDir() {
			return usageError{fmt.Errorf("--csv %s: no such folder", f.csv)}
		}
	}
	var screen tcell.Screen
	if screenFor != nil {
		screen = screenFor()
	} else if err := haveTerminal(); err != nil {
		return usageError{fmt.Errorf("the UI needs a terminal (%v)", err)}
	}
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		return usageError{fmt.Errorf("--listen %s: %w", f.listen, err)}
	}
	srv, err := class.New(class.Config{URL: "http://" + shareHost(ln.Addr()), Code: f.code, MaxClients: f.maxClients})
	if err != nil {
		ln.Close()
		return usageError{err}
	}
	hs := srv.HTTPServer()
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	defer func() {
		srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		if hs.Shutdown(ctx) != nil {
			hs.Close()
		}
		<-served
	}()
	opts.Class = srv
	app, err := buildUI(name, "", f.quiz, over, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "students join at  %s\njoin code         %s\n", srv.JoinURL(), srv.Code())
	if host, _, _ := net.SplitHostPort(f.listen); host == "localhost" || net.ParseIP(host).IsLoopback() {
		fmt.Fprintf(stdout, "(%s is this machine only: for the room's phones, --listen 0.0.0.0:%s)\n", host, portOf(ln.Addr()))
	}
	fmt.Fprintln(stdout, "in the UI: u shows the address and its QR code; on a question, enter reveals the answer")
	if classReady != nil {
		classReady(srv)
	}
	for {
		if err := app.Run(screen); err != nil {
			return runError{err}
		}
		// o and v stop the UI to become another, as in tui; the class
		// follows.
		next := app.Next()
		if next == nil {
			break
		}
		split := ""
		if next.Split {
			split = "raw,pool"
		}
		if app, err = buildUI(next.Scenario, split, f.quiz, over, opts); err != nil {
			return err
		}
		if screenFor != nil {
			screen = screenFor()
		}
	}
	printClassSummary(stdout, srv)
	if f.csv != "" {
		out, err := os.Create(f.csv)
		if err != nil {
			return runError{fmt.Errorf("--csv: %w", err)}
		}
		if err := srv.WriteCSV(out); err != nil {
			out.Close()
			return runError{fmt.Errorf("--csv %s: %w", f.csv, err)}
		}
		if err := out.Close(); err != nil {
			return runError{fmt.Errorf("--csv %s: %w", f.csv, err)}
		}
		fmt.Fprintf(stdout, "the answers are in %s\n", f.csv)
	}
	return nil
}

// shareHost is the host and port students reach a listener at: its own,
// or for one on every address (0.0.0.0, ::) this machine's first address
// on a network.
func shareHost(addr net.Addr) string {
	host, port, _ := net.SplitHostPort(addr.String())
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, a := range addrs {
				if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
					host = n.IP.String()
					break
				}
			}
		}
	}
	return net.JoinHostPort(host, port)
}

func portOf(addr net.Addr) string {
	_, port, _ := net.SplitHostPort(addr.String())
	return port
}

// printClassSummary prints how the class answered each question.
func printClassSummary(w io.Writer, srv *class.Server) {
	sum := srv.Summary()
	asked := fmt.Sprintf("%d questions asked", len(sum))
	if len(sum) == 1 {
		asked = "1 question asked"
	}
	fmt.Fprintf(w, "class: %d joined, %s\n", srv.Joined(), asked)
	for _, q := range sum {
		result := fmt.Sprintf("%d answered", q.Answered)
		if pct, ok := q.PercentRight(); ok {
			result += fmt.Sprintf(", %d right (%.0f%%)", q.Right, pct)
		} else if q.Answer < 0 {
			result += ", not revealed"
		}
		fmt.Fprintf(w, "  %d. %s — %s\n", q.Number, printable(q.Text), result)
	}
}

// printable keeps a scenario's text from reaching the terminal as
// control characters.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '�'
		}
		return r
	}, s)
}
