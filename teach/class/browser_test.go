package class_test

import (
	"context"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gdamore/tcell/v2"

	"github.com/schedlab/schedlab/core/scenarios"
	"github.com/schedlab/schedlab/teach/class"
	"github.com/schedlab/schedlab/view/tui"
)

var screenshots = flag.Bool("screenshots", false, "write the student page at phone and laptop sizes to docs/class-phone.png and docs/class-laptop.png")

// chromium is Debian's; .ci/run installs it.
const chromium = "/usr/bin/chromium"

// browser starts a headless chromium on a fresh profile, kept off the
// network but for the test's own server.
func browser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromium); err != nil {
		t.Skipf("no browser test: %s is missing (apt-get install chromium)", chromium)
	}
	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(390, 844),
	)
	t.Cleanup(cancel)
	ctx, cancelTab := chromedp.NewContext(alloc)
	t.Cleanup(cancelTab)
	if err := chromedp.Do(ctx); err != nil { // starts the browser, with no deadline
		t.Fatalf("starting %s: %v", chromium, err)
	}
	return ctx
}

// teacher is the teacher's UI on a scenario, publishing to srv whenever
// it draws, as it does on a terminal after every key.
type teacher struct {
	app *tui.App
	scr tcell.Screen
}

func newTeacher(t *testing.T, name string, srv *class.Server) *teacher {
	t.Helper()
	sc, err := scenarios.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	app, err := tui.New(sc, sc.Config(), tui.Options{Class: srv, Source: name})
	if err != nil {
		t.Fatal(err)
	}
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(scr.Fini)
	scr.SetSize(120, 40)
	tc := &teacher{app: app, scr: scr}
	tc.draw()
	return tc
}

func (tc *teacher) draw() {
	root := tc.app.Root()
	root.SetRect(0, 0, 120, 40)
	root.Draw(tc.scr)
}

func (tc *teacher) key(k tcell.Key, r rune) {
	tc.app.HandleKey(tcell.NewEventKey(k, r, tcell.ModNone))
	tc.draw()
}

// waitJS waits until the expression is true in the page.
func waitJS(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr)); err != nil {
		t.Fatalf("waiting for %s (%s): %v", what, expr, err)
	}
}

func evalJS[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// A student in a real browser joins with the code, follows the teacher's
// run of tour over the event stream, sees the first question, answers it
// with a tap, sees the reveal, and the run go on; scenario text with
// markup in it shows as text and runs nothing.
//
// go test ./teach/class/ -run ClassBrowser -screenshots rewrites
// docs/class-phone.png and docs/class-laptop.png from it.
func TestClassBrowser(t *testing.T) {
	ctx := browser(t)
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute) // a failsafe
	defer cancel()
	srv, err := class.New(class.Config{Code: "E2E12345"})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	defer srv.Close() // first: it ends the page's event stream, which Close waits for
	tc := newTeacher(t, "tour", srv)

	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/?code=E2E12345")); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "the page over the stream", `document.getElementById("conn").textContent === "Live."`)
	if got := evalJS[string](t, ctx, `location.pathname + location.search`); got != "/" {
		t.Errorf("the address bar keeps %q after joining, want the code gone", got)
	}
	waitJS(t, ctx, "the first event", `document.getElementById("event").textContent.startsWith("Event 1, at ")`)

	tc.key(tcell.KeyRune, 'l') // the teacher steps into the first question
	waitJS(t, ctx, "the question", `document.querySelectorAll("#question button[name=choice]").length === 4`)
	if got := evalJS[string](t, ctx, `document.querySelector("#question .qtext").textContent`); got != "Where does G2 go?" {
		t.Fatalf("the question reads %q", got)
	}
	waitJS(t, ctx, "the timeline", `document.getElementById("timeline").complete && document.getElementById("timeline").naturalWidth > 0`)
	if *screenshots {
		shoot(t, ctx, "../../docs/class-phone.png", 390, 844, 2)
	}

	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#question button[value="1"]`))); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "the answer taken", `document.getElementById("status").textContent.startsWith("You answered 1.")`)
	if !evalJS[bool](t, ctx, `[...document.querySelectorAll("#question button")].every(b => b.disabled) && document.querySelector("#question button.mine").value === "1"`) {
		t.Error("after answering, the choices are not disabled with 1 marked")
	}
	if got := srv.Tally(1); !slices.Equal(got, []int{1, 0, 0, 0}) {
		t.Fatalf("the server's tally %v, want [1 0 0 0]", got)
	}

	tc.key(tcell.KeyEnter, 0) // the teacher reveals
	waitJS(t, ctx, "the reveal", `document.querySelector("#question button.right") !== null && document.querySelectorAll("#question .why").length > 0`)
	status := evalJS[string](t, ctx, `document.getElementById("status").textContent`)
	right := evalJS[string](t, ctx, `document.querySelector("#question button.right").value`)
	want := fmt.Sprintf("You answered 1; the answer is %s.", right)
	if right == "1" {
		want = "Right: the answer is 1."
	}
	if status != want {
		t.Errorf("after the reveal the page says %q, want %q", status, want)
	}
	if *screenshots {
		shoot(t, ctx, "../../docs/class-laptop.png", 1280, 800, 1)
	}

	tc.key(tcell.KeyRune, 'l') // on to the event that answers it
	waitJS(t, ctx, "the question closed", `document.getElementById("question").hidden && !document.getElementById("last").hidden`)

	// The scenario's text is not the page's to trust.
	hostile := `<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>`
	srv.Publish(class.Live{Title: hostile, Note: hostile, Event: hostile})
	waitJS(t, ctx, "the hostile note", `document.getElementById("note").textContent === `+jsString(hostile))
	if !evalJS[bool](t, ctx, `window.pwned === undefined && document.querySelectorAll("#note *, #title *, #event *").length === 0 && document.title.startsWith("<img")`) {
		t.Error("scenario text became markup or ran")
	}
}

// jsString quotes s for a JavaScript expression.
func jsString(s string) string { return fmt.Sprintf("%q", s) }

// shoot writes what a device of w×h CSS pixels at scale shows of the page.
func shoot(t *testing.T, ctx context.Context, path string, w, h int64, scale float64) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, h, chromedp.EmulateScale(scale))); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", path)
}
