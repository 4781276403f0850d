// Package profile is Lore's offline profile learner: documented rules
// (data/rules.txt) that read a user's profile entries (lore.ProfileEntry)
// from what they state in their own messages (explicit entries), from the
// facts the extractor found about them (explicit), and from clear cues in
// what they search for (inferred, at most 0.75 and never above what they
// stated: the store's precedence rules keep explicit entries). It needs no
// model and holds no state; the rules are parsed once into a Rules value.
package profile

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

//go:embed data/rules.txt
var rulesTable string

// Rule kinds of data/rules.txt.
const (
	kindStated = "stated"
	kindQuery  = "query"
)

// rule is one pattern rule.
type rule struct {
	kind       string
	key, value string // may hold $1, $2
	confidence float64
	re         *regexp.Regexp
	// stems are the first three letters of every literal word of three
	// letters or more in the pattern: a text that holds none of them
	// cannot match, and the costly regexp is not run (prefilter).
	stems []string
}

// factRule maps a predicate of a fact about the user to a profile key.
type factRule struct {
	key      string
	maxWords int
}

// alias normalises a captured word, for the keys given (all when none).
type alias struct {
	to   string
	keys []string // "level_*" matches every key starting with "level_"
}

// aliasFor returns word's canonical form for key, or word.
func (r *Rules) aliasFor(word, key string) string {
	a, ok := r.alias[strings.ToLower(word)]
	if !ok {
		return word
	}
	if len(a.keys) == 0 || slices.ContainsFunc(a.keys, func(k string) bool {
		base, prefix := strings.CutSuffix(k, "*")
		return k == key || (prefix && strings.HasPrefix(key, base))
	}) {
		return a.to
	}
	return word
}

// Rules is the parsed rule table.
type Rules struct {
	stated, query []rule
	facts         map[string]factRule
	alias         map[string]alias
	stop          map[string]bool
	block         []*regexp.Regexp
}

// New parses data/rules.txt. It fails only on a broken table, which
// TestRulesTable keeps from shipping.
func New() (*Rules, error) {
	r := &Rules{facts: map[string]factRule{}, alias: map[string]alias{}, stop: map[string]bool{}}
	for n, line := range strings.Split(rulesTable, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		bad := func(why string) error { return fmt.Errorf("profile: rules.txt line %d: %s", n+1, why) }
		switch f[0] {
		case kindStated, kindQuery:
			if len(f) < 5 {
				return nil, bad("want KIND KEY VALUE CONFIDENCE REGEXP")
			}
			conf, err := strconv.ParseFloat(f[3], 64)
			if err != nil || conf < lore.ProfileFloor || conf > 1 {
				return nil, bad("confidence must be a number in [0.5, 1]")
			}
			if f[0] == kindQuery && conf > 0.75 {
				return nil, bad("a query rule infers at most 0.75")
			}
			// The pattern is the rest of the line, spaces included.
			rest := ruleLine.FindStringSubmatch(line)[1]
			re, err := regexp.Compile("(?i)" + rest)
			if err != nil {
				return nil, bad(err.Error())
			}
			ru := rule{kind: f[0], key: f[1], value: f[2], confidence: conf, re: re, stems: stems(rest)}
			if f[0] == kindStated {
				r.stated = append(r.stated, ru)
			} else {
				r.query = append(r.query, ru)
			}
		case "fact":
			if len(f) != 4 {
				return nil, bad("want fact PREDICATE KEY MAXWORDS")
			}
			w, err := strconv.Atoi(f[3])
			if err != nil || w < 1 {
				return nil, bad("MAXWORDS must be a positive number")
			}
			r.facts[f[1]] = factRule{key: f[2], maxWords: w}
		case "alias":
			if len(f) != 3 && len(f) != 4 {
				return nil, bad("want alias WORD CANONICAL [KEYS]")
			}
			a := alias{to: f[2]}
			if len(f) == 4 {
				a.keys = strings.Split(f[3], ",")
			}
			r.alias[strings.ReplaceAll(f[1], "_", " ")] = a
		case "block":
			re, err := regexp.Compile("(?i)" + strings.TrimSpace(strings.TrimPrefix(line, "block")))
			if err != nil {
				return nil, bad(err.Error())
			}
			r.block = append(r.block, re)
		case "stop":
			if len(f) != 2 {
				return nil, bad("want stop WORD")
			}
			r.stop[strings.ReplaceAll(f[1], "_", " ")] = true
		default:
			return nil, bad("unknown line kind " + strconv.Quote(f[0]))
		}
	}
	return r, nil
}

// MustNew is New for callers that cannot handle an error: the table is
// part of the build and its test keeps it valid.
func MustNew() *Rules {
	r, err := New()
	if err != nil {
		panic(err)
	}
	return r
}

// ruleLine captures the pattern of a stated or query line: what follows
// its first four fields.
var ruleLine = regexp.MustCompile(`^\S+\s+\S+\s+\S+\s+\S+\s+(.+)$`)

// escapes are a pattern's escape sequences (\b, \s, \d) and group flags.
var escapes = regexp.MustCompile(`\\[a-zA-Z]|\(\?-?[a-z]*:?`)

// stems returns the three-letter stems of a pattern's literal words: each
// path through the pattern holds at least one such word (TestRuleStems).
func stems(pattern string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(escapes.ReplaceAllString(strings.ToLower(pattern), " "), func(r rune) bool { return r < 'a' || r > 'z' }) {
		if len(w) >= 3 && !slices.Contains(out, w[:3]) {
			out = append(out, w[:3])
		}
	}
	return out
}

// sentences splits text at sentence ends, so a rule never spans two.
var sentenceEnd = regexp.MustCompile(`[.!?;\n]+\s*`)

// FromStatement returns the explicit entries a user's own message states,
// with evidence episodeID (may be "") and time at.
func (r *Rules) FromStatement(text, episodeID string, at time.Time) []lore.ProfileEntry {
	var out []lore.ProfileEntry
	text = strings.NewReplacer("’", "'", "‘", "'").Replace(text)
	for _, s := range sentenceEnd.Split(text, -1) {
		if strings.TrimSpace(s) == "" {
			continue
		}
		for _, ru := range r.stated {
			out = r.apply(out, ru, s, lore.ProfileExplicit, evidence(episodeID), at, r.block)
		}
		out = append(out, r.ownsEntries(s, evidence(episodeID), at)...)
		out = append(out, r.identityEntries(s, evidence(episodeID), at)...)
	}
	return dedupe(out)
}

// FromQuery returns the inferred entries a search query's clear cues
// show. Their evidence is the query's hash (lore.QueryEvidence), never its
// text.
func (r *Rules) FromQuery(query string, at time.Time) []lore.ProfileEntry {
	var out []lore.ProfileEntry
	query = strings.NewReplacer("’", "'", "‘", "'").Replace(query)
	for _, ru := range r.query {
		out = r.apply(out, ru, query, lore.ProfileInferred, []string{lore.QueryEvidence(query)}, at, nil)
	}
	return dedupe(out)
}

// FromFact returns the explicit entry a current fact about the user feeds,
// if its predicate is in the table, its object is short enough to be a
// value, and no source text reports it as someone else's view (a block
// pattern before the object in its sentence: "my students think I'm a
// nurse"). userEpisodes are the fact's sources said by the user, texts
// their contents.
func (r *Rules) FromFact(f *lore.Fact, userEpisodes, texts []string, at time.Time) (lore.ProfileEntry, bool) {
	fr, ok := r.facts[f.Predicate]
	if !ok || f.Object == "" || len(strings.Fields(f.Object)) > fr.maxWords {
		return lore.ProfileEntry{}, false
	}
	obj := strings.ToLower(f.Object)
	for _, text := range texts {
		for _, sent := range sentenceEnd.Split(strings.ToLower(text), -1) {
			if i := strings.Index(sent, obj); i >= 0 && slices.ContainsFunc(r.block, func(b *regexp.Regexp) bool { return b.MatchString(sent[:i]) }) {
				return lore.ProfileEntry{}, false
			}
		}
	}
	value := r.normValue(fr.key, f.Object)
	if value == "" {
		return lore.ProfileEntry{}, false
	}
	return lore.ProfileEntry{Key: fr.key, Value: value, Confidence: f.Confidence, Source: lore.ProfileExplicit,
		Evidence: userEpisodes, UpdatedAt: at}, true
}

// apply adds ru's entries for every match in s, but those that a block
// pattern in the text before them cancels.
func (r *Rules) apply(out []lore.ProfileEntry, ru rule, s string, src lore.ProfileSource, ev []string, at time.Time, block []*regexp.Regexp) []lore.ProfileEntry {
	lower := strings.ToLower(s)
	if !slices.ContainsFunc(ru.stems, func(st string) bool { return strings.Contains(lower, st) }) {
		return out
	}
	for _, loc := range ru.re.FindAllStringSubmatchIndex(s, -1) {
		if slices.ContainsFunc(block, func(b *regexp.Regexp) bool { return b.MatchString(s[:loc[0]]) }) {
			continue
		}
		m := make([]string, len(loc)/2)
		for i := range m {
			if loc[2*i] >= 0 {
				m[i] = s[loc[2*i]:loc[2*i+1]]
			}
		}
		key := r.expand(ru.key, ru.key, m, true)
		value := r.normValue(key, r.expand(ru.value, key, m, false))
		if key == "" || value == "" {
			continue
		}
		k, err := lore.NormalizePredicate(key)
		if err != nil {
			continue
		}
		out = append(out, lore.ProfileEntry{Key: k, Value: value, Confidence: ru.confidence, Source: src, Evidence: ev, UpdatedAt: at})
	}
	return out
}

// expand fills $1, $2 in tmpl with the match's groups, each through the
// aliases for forKey (a key template's text before "$" for a key); in a
// key, a group's spaces become underscores.
func (r *Rules) expand(tmpl, forKey string, m []string, key bool) string {
	if !strings.Contains(tmpl, "$") {
		return tmpl
	}
	out := tmpl
	for i := len(m) - 1; i >= 1; i-- {
		g := strings.TrimSpace(m[i])
		target := forKey
		if key {
			target, _, _ = strings.Cut(forKey, "$")
			target += "*"
		}
		g = r.aliasFor(g, strings.TrimSuffix(target, "*"))
		if key {
			g = strings.ReplaceAll(strings.ToLower(g), " ", "_")
		}
		out = strings.ReplaceAll(out, "$"+strconv.Itoa(i), g)
	}
	if strings.Contains(out, "$") {
		return ""
	}
	return out
}

// normValue tidies a value: aliases, lower case except for places, no
// stop values.
func (r *Rules) normValue(key, v string) string {
	v = strings.TrimSpace(strings.Trim(strings.TrimSpace(v), ".,;:!?\"'()"))
	if v == "" || r.stop[strings.ToLower(v)] {
		return ""
	}
	v = r.aliasFor(v, key)
	if key != "location" && key != "place" && key != "employer" {
		v = strings.ToLower(v)
	}
	return v
}

// evidence is the evidence list of one episode id.
func evidence(id string) []string {
	if id == "" {
		return []string{}
	}
	return []string{id}
}

// dedupe keeps the first (most confident) entry per key and value.
func dedupe(es []lore.ProfileEntry) []lore.ProfileEntry {
	seen := map[string]int{}
	var out []lore.ProfileEntry
	for _, e := range es {
		id := e.Key + "\x00" + lore.NormalizeProfileValue(e.Value)
		if i, ok := seen[id]; ok {
			out[i].Confidence = max(out[i].Confidence, e.Confidence)
			continue
		}
		seen[id] = len(out)
		out = append(out, e)
	}
	return out
}
