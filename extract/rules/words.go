package rules

import (
	"embed"
	"maps"
	"slices"
	"sort"
	"strings"
)

// The word lists live in data/*.txt; each file's header says where it came
// from.
//
//go:embed data/*.txt
var dataFiles embed.FS

// readList returns the non-comment lines of a data file, trimmed and lower
// case.
func readList(name string) []string {
	raw, err := dataFiles.ReadFile("data/" + name)
	if err != nil {
		panic("rules: missing word list " + name)
	}
	var out []string
	for _, line := range strings.Split(string(raw), "\n") {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		line = strings.ToLower(strings.Join(strings.Fields(line), " "))
		if line != "" {
			out = append(out, line)
		}
	}
	return out
}

// phraseSet holds phrases of words for matching at the start of a word list.
type phraseSet struct {
	phrases map[string]bool
	longest int // in words
}

func newPhraseSet(list []string) phraseSet {
	ps := phraseSet{phrases: map[string]bool{}}
	for _, p := range list {
		ps.phrases[p] = true
		ps.longest = max(ps.longest, len(strings.Fields(p)))
	}
	return ps
}

// prefix returns how many of words (lower case, punctuation trimmed) the
// longest phrase of the set starting them covers, or 0.
func (ps phraseSet) prefix(words []string) int {
	for n := min(ps.longest, len(words)); n > 0; n-- {
		if ps.phrases[strings.Join(words[:n], " ")] {
			return n
		}
	}
	return 0
}

var (
	fillers                                          = newPhraseSet(readList("fillers.txt"))
	pleasantries                                     = newPhraseSet(readList("pleasantries.txt"))
	subjectless                                      = listSet(readList("subjectless.txt"))
	continuedVerbs                                   = listSet(readList("continued.txt"))
	roleWords, petRoles, roleAliases, oneHolderRoles = readRoles()
	endings                                          = readEndings()
	occupations, occupationSuffixes                  = readOccupations()
	// oneHolderRoleList is oneHolderRoles in a fixed order, for endings
	// that try each.
	oneHolderRoleList = slices.Sorted(maps.Keys(oneHolderRoles))
)

func listSet(list []string) map[string]bool {
	m := make(map[string]bool, len(list))
	for _, w := range list {
		m[w] = true
	}
	return m
}

// readRoles reads data/roles.txt: the role words, longest first (so "best
// friend" is tried before "friend"), which of them are pets, and the
// informal words for a role ("hubby" → "husband").
func readRoles() (roles []string, pets map[string]bool, aliases map[string]string, oneHolder map[string]bool) {
	pets, aliases, oneHolder = map[string]bool{}, map[string]string{}, map[string]bool{}
	for _, line := range readList("roles.txt") {
		if w, role, ok := strings.Cut(line, " = "); ok {
			roles = append(roles, w)
			aliases[w] = role
			continue
		}
		if w, ok := strings.CutSuffix(line, " pet"); ok {
			roles = append(roles, w)
			pets[w] = true
			continue
		}
		if w, ok := strings.CutSuffix(line, " one"); ok {
			roles = append(roles, w)
			oneHolder[w] = true
			continue
		}
		roles = append(roles, line)
	}
	sort.SliceStable(roles, func(i, j int) bool { return len(roles[i]) > len(roles[j]) })
	return roles, pets, aliases, oneHolder
}

// rolePredicate is the predicate of a role: "guinea pig" → has_guinea_pig.
func rolePredicate(role string) string {
	return "has_" + strings.NewReplacer(" ", "_", "-", "_").Replace(role)
}

// canonicalRole is the role a role word names, lower case: "Hubby" →
// "husband".
func canonicalRole(word string) string {
	w := strings.ToLower(word)
	if r, ok := roleAliases[w]; ok {
		return r
	}
	return w
}

// ending is one line of data/endings.txt: a verb phrase and what it ends.
type ending struct {
	verb string // "quit", "broke up with"
	ends string // work, habit, own or partner
}

func readEndings() []ending {
	var out []ending
	for _, line := range readList("endings.txt") {
		i := strings.LastIndex(line, " ")
		if i < 0 {
			continue
		}
		out = append(out, ending{verb: line[:i], ends: line[i+1:]})
	}
	// Longest first: "got laid off from" before "left".
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].verb) > len(out[j].verb) })
	return out
}

// readOccupations reads occupations.txt: whole words, and "-suffix" lines
// for the endings that make a profession of any word.
func readOccupations() (map[string]bool, []string) {
	words := map[string]bool{}
	var suffixes []string
	for _, line := range readList("occupations.txt") {
		if suf, ok := strings.CutPrefix(line, "-"); ok {
			suffixes = append(suffixes, suf)
			continue
		}
		words[line] = true
	}
	return words, suffixes
}
