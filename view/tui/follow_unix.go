//go:build unix

package tui

import (
	"os"
	"syscall"
)

// ownedByMe reports whether the file is the user's own: a follower reads
// only what its user's presenter wrote.
func ownedByMe(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

// openNoFollow opens a file for reading, refusing a symbolic link put
// there since it was looked at.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
