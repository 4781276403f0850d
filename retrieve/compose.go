package retrieve

import (
	_ "embed"
	"strings"
)

// compositionData is the role composition list; role_compositions.txt says
// where it comes from.
//
//go:embed role_compositions.txt
var compositionData string

// roleCompositions maps two canonical roles ("daughter husband") to the one
// role they compose (son_in_law).
var roleCompositions = parseCompositions(compositionData)

func parseCompositions(data string) map[string]string {
	out := map[string]string{}
	for line := range dataLines(data) {
		pair, composed, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		out[strings.Join(strings.Fields(pair), " ")] = strings.TrimSpace(composed)
	}
	return out
}

// composedRole returns the role that first then second compose ("daughter"
// then "husband": son_in_law), or nil.
func composedRole(first, second []string) []string {
	canon := func(role []string) string {
		w := singular(strings.Join(role, "_"))
		if c, ok := roleCanon[w]; ok {
			return c
		}
		return w
	}
	if c, ok := roleCompositions[canon(first)+" "+canon(second)]; ok {
		return []string{c}
	}
	return nil
}
