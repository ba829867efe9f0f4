package cputime

import "embed"

// Source is this package's code without its tests and this file, which
// embeds files for schedlab, not for a generated program: prog.Write
// copies it into the program's module. A test checks that every other
// file of the package is listed.
//
//go:embed cputime_other.go cputime_unix.go doc.go
var Source embed.FS
