// Package jsonfile reads the JSON files schedlab takes from anyone (a cost
// profile, a recording of real runs) strictly, and places what it refuses
// at its file, line and column, as the scenario parser places its errors.
package jsonfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/schedlab/schedlab/core/gmp"
	"github.com/schedlab/schedlab/internal/safetext"
)

// Kind says what a file is, for the messages about it.
type Kind struct {
	// Noun names the file's kind: "profile", "recording".
	Noun string
	// Unknown says what an unknown field in it likely means ("a typo, or
	// a profile of another layout than schedlab-costs/5").
	Unknown string
}

// ReadFile reads the file at path, a regular file, at most limit bytes
// of it and one more, so that the caller can refuse a file over the limit
// with its own words without reading all of it.
//
// It looks before it opens: opening a named pipe waits for a writer, and
// a file anyone may name must not hang the command.
func ReadFile(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit+1))
}

// Decode decodes data, read from file, into v: valid UTF-8, one JSON
// value, no field v does not have. Its error is a *gmp.Error at the
// line and column at fault.
func Decode(file string, data []byte, v any, k Kind) error {
	if !utf8.Valid(data) {
		return &gmp.Error{Pos: PosAt(file, data, int64(firstInvalid(data))), Msg: "not UTF-8 text"}
	}
	// A syntax error is placed by json.Unmarshal, whose offsets count
	// from the start of the data (a Decoder's count from its buffer).
	var syntax json.RawMessage
	if err := json.Unmarshal(data, &syntax); err != nil {
		return Error(file, data, err, k)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return Error(file, data, err, k)
	}
	return nil
}

// Error places err, of decoding data (from file) as JSON, at its line and
// column, in words a person reads.
func Error(file string, data []byte, err error, k Kind) error {
	var (
		syn *json.SyntaxError
		typ *json.UnmarshalTypeError
	)
	off, msg := int64(0), err.Error()
	switch {
	case errors.As(err, &syn) && strings.Contains(syn.Error(), "unexpected end"):
		off = int64(len(data))
		msg = fmt.Sprintf("the %s ends early: not JSON", k.Noun)
	case errors.As(err, &syn):
		off = syn.Offset - 1 // the offset is past the character at fault
		msg = "not JSON: " + syn.Error()
	case errors.As(err, &typ):
		off = typ.Offset
		field := typ.Field
		if field == "" {
			field = "the " + k.Noun
		}
		msg = fmt.Sprintf("%s: want a %s, got a JSON %s", field, jsonKind(typ.Type.Kind().String()), typ.Value)
		if strings.HasPrefix(typ.Value, "number") {
			msg = fmt.Sprintf("%s: %s is out of range, or not a whole number where one is wanted", field, strings.TrimSpace(strings.TrimPrefix(typ.Value, "number")))
		}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		off = int64(len(data))
		msg = fmt.Sprintf("the %s ends early: not JSON", k.Noun)
	case strings.HasPrefix(msg, "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(msg, "json: unknown field "), `"`)
		msg = fmt.Sprintf("unknown field %q: %s", safetext.Clip(name, 40), k.Unknown)
		off = int64(bytes.Index(data, []byte(`"`+name+`"`)))
	}
	return &gmp.Error{Pos: PosAt(file, data, max(off, 0)), Msg: msg}
}

func jsonKind(k string) string {
	switch k {
	case "float64", "int", "int64", "uint64":
		return "number"
	case "struct", "ptr":
		return "JSON object"
	case "slice":
		return "JSON array"
	}
	return k
}

// PosAt is the line and column of byte offset off in data, the column
// counted in characters.
func PosAt(file string, data []byte, off int64) gmp.Pos {
	off = max(0, min(off, int64(len(data))))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	return gmp.Pos{File: file, Line: line, Col: col}
}

func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}
