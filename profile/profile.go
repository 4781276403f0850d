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
}

// factRule maps a predicate of a fact about the user to a profile key.
type factRule struct {
	key      string
	maxWords int
}

// Rules is the parsed rule table.
type Rules struct {
	stated, query []rule
	facts         map[string]factRule
	alias         map[string]string
	stop          map[string]bool
}

// New parses data/rules.txt. It fails only on a broken table, which
// TestRulesTable keeps from shipping.
func New() (*Rules, error) {
	r := &Rules{facts: map[string]factRule{}, alias: map[string]string{}, stop: map[string]bool{}}
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
			ru := rule{kind: f[0], key: f[1], value: f[2], confidence: conf, re: re}
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
			if len(f) != 3 {
				return nil, bad("want alias WORD CANONICAL")
			}
			r.alias[strings.ReplaceAll(f[1], "_", " ")] = f[2]
		case "stop":
			if len(f) != 2 {
				return nil, bad("want stop WORD")
			}
			r.stop[f[1]] = true
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
			out = r.apply(out, ru, s, lore.ProfileExplicit, evidence(episodeID), at)
		}
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
		out = r.apply(out, ru, query, lore.ProfileInferred, []string{lore.QueryEvidence(query)}, at)
	}
	return dedupe(out)
}

// FromFact returns the explicit entry a current fact about the user feeds,
// if its predicate is in the table and its object is short enough to be a
// value.
func (r *Rules) FromFact(f *lore.Fact, userEpisodes []string, at time.Time) (lore.ProfileEntry, bool) {
	fr, ok := r.facts[f.Predicate]
	if !ok || f.Object == "" || len(strings.Fields(f.Object)) > fr.maxWords {
		return lore.ProfileEntry{}, false
	}
	value := r.normValue(fr.key, f.Object)
	if value == "" {
		return lore.ProfileEntry{}, false
	}
	return lore.ProfileEntry{Key: fr.key, Value: value, Confidence: f.Confidence, Source: lore.ProfileExplicit,
		Evidence: userEpisodes, UpdatedAt: at}, true
}

// apply adds ru's entries for every match in s.
func (r *Rules) apply(out []lore.ProfileEntry, ru rule, s string, src lore.ProfileSource, ev []string, at time.Time) []lore.ProfileEntry {
	for _, m := range ru.re.FindAllStringSubmatch(s, -1) {
		key := r.expand(ru.key, m, true)
		value := r.normValue(key, r.expand(ru.value, m, false))
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
// aliases; in a key, a group's spaces become underscores.
func (r *Rules) expand(tmpl string, m []string, key bool) string {
	if !strings.Contains(tmpl, "$") {
		return tmpl
	}
	out := tmpl
	for i := len(m) - 1; i >= 1; i-- {
		g := strings.TrimSpace(m[i])
		if a, ok := r.alias[strings.ToLower(g)]; ok {
			g = a
		}
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
	if a, ok := r.alias[strings.ToLower(v)]; ok {
		v = a
	}
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
