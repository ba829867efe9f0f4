package tui

import (
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/core/scenarios"
)

// --watch: the scenario file is read again when it changes, on the UI's
// ticker (its size and time, then its bytes), and the new run opens at
// the moment the old one showed. A file that no longer parses says so on
// the status bar, file:line:col, and the run shown stays.

// Reloader loads the scenario again, with the command line's overrides:
// the command that starts the UI knows them.
type Reloader func() (*scenarios.Scenario, gmp.Config, error)

// watcher is what --watch remembers of the file.
type watcher struct {
	path   string
	reload Reloader
	stamp  fileStamp
	sum    [sha256.Size]byte
}

// fileStamp is what a stat says changed.
type fileStamp struct {
	size int64
	mod  int64
}

// Watch has the UI read path again when it changes, with reload.
func (a *App) Watch(path string, reload Reloader) {
	w := &watcher{path: path, reload: reload}
	w.stamp, w.sum, _ = w.look()
	a.watch = w
}

// maxWatched bounds what is read of the file to tell a change: the parser
// refuses a larger scenario anyway.
const maxWatched = 1 << 20

// look stats and hashes the file.
func (w *watcher) look() (fileStamp, [sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	fi, err := os.Stat(w.path)
	if err != nil {
		return fileStamp{}, sum, err
	}
	st := fileStamp{fi.Size(), fi.ModTime().UnixNano()}
	f, err := os.Open(w.path)
	if err != nil {
		return st, sum, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, maxWatched+1)); err != nil {
		return st, sum, err
	}
	copy(sum[:], h.Sum(nil))
	return st, sum, nil
}

// checkWatch reloads the scenario if its file changed, keeping the
// moment shown. It reports whether the screen changes.
func (a *App) checkWatch() bool {
	w := a.watch
	st, sum, err := w.look()
	if err != nil || st == w.stamp && sum == w.sum {
		return false
	}
	w.stamp = st
	if sum == w.sum {
		return false // touched, not changed
	}
	w.sum = sum
	// The mistake first, where the status bar has room: file:line:col
	// by the file's base name.
	failed := func(err error) bool {
		msg := strings.ReplaceAll(firstLine(err.Error()), w.path+":", filepath.Base(w.path)+":")
		a.message = msg + " (the run shown is the last that loaded)"
		return true
	}
	sc, cfg, err := w.reload()
	if err != nil {
		return failed(err)
	}
	sess, err := NewSession(sc, cfg)
	if err != nil {
		return failed(err)
	}
	at := a.sess.State().Now()
	if a.sess.Quizzing() {
		_ = sess.EnableQuiz(a.opts.Quiz) // the model's questions only with --quiz
	}
	a.stopAt()
	a.job = nil
	a.sess = sess
	sess.seekTime(at)
	a.message = "reloaded " + filepath.Base(w.path) + ", at " + at.String()
	return true
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	for i := range len(s) {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
