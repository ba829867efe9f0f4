package scenarios

import (
	"regexp"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// maxMarks bounds a scenario's marks: a presenter jumps among a few.
const maxMarks = 26

// markName is what a mark may be called: a word a presenter types.
var markName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,23}$`)

// marks reads marks: [{name: steal, on: steal}, {name: late, at: 20ms}].
func (p *reader) marks(n ast.Node) []Mark {
	seq, ok := p.resolve(n).(*ast.SequenceNode)
	if !ok {
		p.errorf(n, "write a list of {name: steal, on: steal} or {name: late, at: 20ms}", "marks must be a list")
		return nil
	}
	if len(seq.Values) > maxMarks {
		p.errorf(n, "keep the ones a talk jumps to", "%d marks, more than %d", len(seq.Values), maxMarks)
		return nil
	}
	var out []Mark
	seen := map[string]bool{}
	for _, item := range seq.Values {
		m, ok := p.resolve(item).(*ast.MappingNode)
		if !ok {
			p.errorf(item, "write {name: steal, on: steal}", "a mark must be a mapping")
			continue
		}
		f := p.mapping(m, []string{"name", "at", "on"}, "mark")
		mark := Mark{Pos: p.pos(item), Moment: p.moment(m, f, "a mark")}
		if nn, ok := f["name"]; ok {
			mark.Name = strings.TrimSpace(p.str(nn, "name"))
			switch {
			case !markName.MatchString(mark.Name):
				p.errorf(nn, "a name of lower-case letters, digits and dashes, such as steal or after-preempt", "mark name %q", mark.Name)
			case seen[mark.Name]:
				p.errorf(nn, "give each mark a name of its own", "a second mark named %q", mark.Name)
			}
			seen[mark.Name] = true
		} else {
			p.errorf(m, "write the name ' jumps to it by", "a mark has no name:")
		}
		out = append(out, mark)
	}
	return out
}

// NewMarkTracker places a scenario's marks on the events of its run as
// notes are placed: each on the first event its moment names.
func NewMarkTracker(marks []Mark) *NoteTracker {
	notes := make([]Note, len(marks))
	for i, m := range marks {
		notes[i] = Note{Moment: m.Moment, Pos: m.Pos}
	}
	return NewNoteTracker(notes)
}
