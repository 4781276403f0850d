package retrieve

import (
	"context"
	_ "embed"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"

	"github.com/lore-memory/lore"
)

// SignalProfile names the profile-aware rerank's factor in ScoreDetails.
const SignalProfile = "profile"

// ProfileConfig switches profile-aware retrieval (issue 13). Every part is
// off by default, so default rankings do not move; a unique-answer query
// (unique_answer.txt) is never personalized, whatever is on. Measured with
// `lore bench profile` (README § User profile), nDCG@5 of the open
// questions, tune / validate half: plain 0.216 / 0.102; blend alone
// 0.243 / 0.155; rerank alone 0.454 / 0.350; both 0.466 / 0.369. On
// LongMemEval-S single-session-preference (3 questions a half), with the
// learner's owns and identity entries, blend and rerank raise session
// recall_any@5 and recall_all@5 from 0.667 to 1.000 on the validation half
// (tune: 1.000 both ways); the evidence boost alone does too, but lowers
// turn nDCG@10 (0.661 → 0.585). Off by default: six questions and our own
// fixture are all the measurement there is.
type ProfileConfig struct {
	// Blend embeds the query as v = Alpha·q + (1−Alpha)·p, normalised,
	// where p is the embedding of the user's profile (profileText).
	Blend bool    `json:"blend"`
	Alpha float64 `json:"alpha"`
	// Rerank multiplies a candidate's fused score by 1 + RerankWeight when
	// its text fits the profile (profile_terms.txt) and by 1 − RerankWeight
	// when it clashes with it; skipped under RerankMin candidates.
	Rerank       bool    `json:"rerank"`
	RerankWeight float64 `json:"rerank_weight"`
	RerankMin    int     `json:"rerank_min"`
	// Evidence multiplies by 1 + EvidenceWeight the score of the memories
	// the profile entries closest to the query were learned from (at most
	// EvidenceTop entries, each with a cosine of at least EvidenceMinSim
	// between its embedding and the query's); skipped under RerankMin
	// candidates (profile_evidence.go). The entries are embedded with the
	// query, in the dense search's Embed call.
	Evidence       bool    `json:"evidence"`
	EvidenceWeight float64 `json:"evidence_weight"`
	EvidenceTop    int     `json:"evidence_top"`
	EvidenceMinSim float64 `json:"evidence_min_sim"`
	// Rewrite asks Pipeline.Rewriter for a version of the query that says
	// what the profile implies; the original is kept on error or timeout.
	Rewrite bool `json:"rewrite"`
}

// MinProfileAlpha is the least query weight a blend may have: below it the
// profile would outweigh what was asked.
const MinProfileAlpha = 0.5

// Validate reports EINVALID for a blend weight outside [0.5, 1] or a
// rerank weight outside [0, 1).
func (c ProfileConfig) Validate() error {
	if c.Blend && (c.Alpha < MinProfileAlpha || c.Alpha > 1 || math.IsNaN(c.Alpha)) {
		return lore.Errorf(lore.EINVALID, "profile blend alpha %v is outside [%v, 1]: below %v the user's profile would outweigh the query", c.Alpha, MinProfileAlpha, MinProfileAlpha)
	}
	if c.Rerank && (c.RerankWeight < 0 || c.RerankWeight >= 1) {
		return lore.Errorf(lore.EINVALID, "profile rerank weight %v is outside [0, 1)", c.RerankWeight)
	}
	if c.Evidence && (c.EvidenceWeight < 0 || c.EvidenceWeight > 1 || c.EvidenceTop < 1 || c.EvidenceMinSim < -1 || c.EvidenceMinSim > 1) {
		return lore.Errorf(lore.EINVALID, "profile evidence weight %v must be in [0, 1], evidence top %d at least 1 and evidence min sim %v in [-1, 1]", c.EvidenceWeight, c.EvidenceTop, c.EvidenceMinSim)
	}
	return nil
}

// QueryRewriter rewrites a query with what the user's profile implies
// (extract/llm's profile rewrite), never adding facts the user did not
// state.
type QueryRewriter interface {
	RewriteQuery(ctx context.Context, query string, profile []lore.ProfileEntry) (string, error)
}

// personalization is what a search knows of its user: the profile, and
// which profile-aware parts apply to this query.
type personalization struct {
	entries []lore.ProfileEntry
	unique  bool   // a unique-answer query: nothing personal applies
	text    string // the profile as text, for the blend
	blend   bool
	rerank  bool
	// evidenceOf are the entries the evidence boost weighs, embedded
	// with the query; evidence are the memories of those that bear on it,
	// set by embedQuery (profile_evidence.go).
	evidenceOf []evidenceEntry
	evidence   map[string]bool
}

// personalize loads the user's profile (none for an agent-only scope or
// without Pipeline.Profiles) and decides what applies to the query.
func (p *Pipeline) personalize(ctx context.Context, req Request) (*personalization, error) {
	out := &personalization{entries: []lore.ProfileEntry{}}
	if p.Profiles == nil || req.Scope.UserID == "" {
		return out, nil
	}
	entries, err := p.Profiles.ProfileEntries(ctx, req.Scope)
	if err != nil {
		return nil, fmt.Errorf("retrieve: profile: %w", err)
	}
	out.entries = entries
	cfg := p.Config.Profile
	if len(entries) == 0 || !(cfg.Blend || cfg.Rerank || cfg.Rewrite || cfg.Evidence) {
		return out, nil
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	out.unique = UniqueAnswer(req.Query)
	if out.unique {
		return out, nil
	}
	out.text = profileText(entries)
	out.blend = cfg.Blend && p.Embedder != nil && out.text != ""
	out.rerank = cfg.Rerank && cfg.RerankWeight > 0
	if cfg.Evidence && cfg.EvidenceWeight > 0 && p.Embedder != nil {
		out.evidenceOf = evidenceEntries(entries)
	}
	return out, nil
}

// rewrite returns the query the candidates are searched with: the
// Rewriter's version when Rewrite is on and the query is not
// unique-answer, else the query as asked.
func (p *Pipeline) rewrite(ctx context.Context, query string, pers *personalization) string {
	if pers == nil || pers.unique || !p.Config.Profile.Rewrite || p.Rewriter == nil || len(pers.entries) == 0 {
		return query
	}
	q, err := p.Rewriter.RewriteQuery(ctx, query, pers.entries)
	if err != nil || strings.TrimSpace(q) == "" {
		return query
	}
	return q
}

// embedQuery embeds the query, blended with the profile when the blend
// applies, and picks the profile evidence bearing on it when the evidence
// boost applies: every text goes in one Embed call.
func (p *Pipeline) embedQuery(ctx context.Context, text string, pers *personalization) ([][]float32, error) {
	if pers == nil || (!pers.blend && len(pers.evidenceOf) == 0) {
		return lore.EmbedQuery(ctx, p.Embedder, []string{text})
	}
	texts := []string{text}
	if pers.blend {
		texts = append(texts, pers.text)
	}
	first := len(texts)
	for _, e := range pers.evidenceOf {
		texts = append(texts, e.text)
	}
	vs, err := lore.EmbedQuery(ctx, p.Embedder, texts)
	if err != nil {
		return nil, err
	}
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("got %d vectors, want %d", len(vs), len(texts))
	}
	if len(pers.evidenceOf) > 0 {
		cfg := p.Config.Profile
		pers.evidence = relevantEvidence(vs[0], pers.evidenceOf, vs[first:], cfg.EvidenceTop, cfg.EvidenceMinSim)
	}
	if !pers.blend {
		return vs[:1], nil
	}
	return [][]float32{blendVectors(vs[0], vs[1], p.Config.Profile.Alpha)}, nil
}

// blendVectors returns alpha·q + (1−alpha)·u, L2-normalised.
func blendVectors(q, u []float32, alpha float64) []float32 {
	out := make([]float32, len(q))
	var n float64
	for i := range q {
		x := alpha*float64(q[i]) + (1-alpha)*float64(u[i])
		out[i] = float32(x)
		n += x * x
	}
	if n == 0 {
		return out
	}
	n = math.Sqrt(n)
	for i := range out {
		out[i] = float32(float64(out[i]) / n)
	}
	return out
}

// profileText renders entries as one line of text, for the embedding.
func profileText(entries []lore.ProfileEntry) string {
	var parts []string
	for _, e := range entries {
		parts = append(parts, strings.ReplaceAll(e.Key, "_", " ")+": "+e.Value)
	}
	return strings.Join(parts, "; ")
}

// applyProfileRerank multiplies each candidate's fused score by its fit
// with the profile: 1 + w for a memory with a fitting word and no clashing
// one, 1 − w for one with a clashing word and no fitting one. It does
// nothing under RerankMin candidates.
func applyProfileRerank(c *candidateSet, f fused, pers *personalization, cfg ProfileConfig) {
	if pers == nil || !pers.rerank || len(f.Scores) < cfg.RerankMin {
		return
	}
	fit, clash := profileTerms(pers.entries)
	if len(fit) == 0 && len(clash) == 0 {
		return
	}
	for id := range f.Scores {
		var text string
		if fa := c.facts[id]; fa != nil {
			text = fa.Text
		} else if ep := c.episodes[id]; ep != nil {
			text = ep.Content
		} else {
			continue
		}
		words := wordsOf(text)
		good, bad := matchAny(words, fit), matchAny(words, clash)
		factor := 1.0
		switch {
		case good && !bad:
			factor = 1 + cfg.RerankWeight
		case bad && !good:
			factor = 1 - cfg.RerankWeight
		default:
			continue
		}
		f.Scores[id] *= factor
		detail(f.Details, id)[SignalProfile] = factor
	}
}

// withAboutUser prepends the "About the user" section to a context: one
// line per entry, at most maxAbout of them and maxAboutPerKey per key,
// explicit entries first.
func withAboutUser(entries []lore.ProfileEntry, context string, maxChars int) string {
	if len(entries) == 0 {
		return context
	}
	var b strings.Builder
	b.WriteString("About the user:\n")
	n := 0
	perKey := map[string]int{}
	for _, src := range []lore.ProfileSource{lore.ProfileExplicit, lore.ProfileInferred} {
		for _, e := range entries {
			if e.Source != src || n == maxAbout || perKey[e.Key] == maxAboutPerKey {
				continue
			}
			perKey[e.Key]++
			how := "stated"
			if src == lore.ProfileInferred {
				how = fmt.Sprintf("inferred, %.0f%%", 100*e.Confidence)
			}
			b.WriteString("- " + strings.ReplaceAll(e.Key, "_", " ") + ": " + clip(e.Value) + " (" + how + ")\n")
			n++
		}
	}
	about := b.String()
	if context == "" {
		return strings.TrimRight(about, "\n")
	}
	out := about + "\n" + context
	if maxChars > 0 && len(out) > maxChars {
		// The memories come first: the section is dropped, not them.
		return context
	}
	return out
}

// maxAbout bounds the lines of the "About the user" section, and
// maxAboutPerKey those of one key, so that a long set (the things a user
// owns) does not crowd out the rest (diet, allergies, pets).
const (
	maxAbout       = 12
	maxAboutPerKey = 3
)

//go:embed unique_answer.txt
var uniqueAnswerTable string

//go:embed profile_terms.txt
var profileTermsTable string

// answerRules are unique_answer.txt, parsed once.
type answerRules struct {
	recall, open, unique []*regexp.Regexp
}

var parseAnswerRules = sync.OnceValue(func() answerRules {
	var r answerRules
	for line := range strings.Lines(uniqueAnswerTable) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kind, pat, _ := strings.Cut(line, " ")
		re := regexp.MustCompile("(?i)" + strings.TrimSpace(pat))
		switch kind {
		case "recall":
			r.recall = append(r.recall, re)
		case "open":
			r.open = append(r.open, re)
		case "unique":
			r.unique = append(r.unique, re)
		default:
			panic("retrieve: unique_answer.txt: unknown kind " + kind)
		}
	}
	return r
})

// UniqueAnswer reports whether query asks for one answer that does not
// depend on who asks, or one recorded fact (unique_answer.txt): a "recall"
// pattern matches, or no "open" one does and a "unique" one does. Every
// question that asks for no advice is unique.
func UniqueAnswer(query string) bool {
	r := parseAnswerRules()
	for _, re := range r.recall {
		if re.MatchString(query) {
			return true
		}
	}
	for _, re := range r.open {
		if re.MatchString(query) {
			return false
		}
	}
	for _, re := range r.unique {
		if re.MatchString(query) {
			return true
		}
	}
	return false
}

// termRule is one line of profile_terms.txt.
type termRule struct {
	key, value string // key may end in "_*"
	fit, clash []string
}

// termTable is profile_terms.txt parsed: its rules, and the words an
// entry's value lends no fit or clash.
type termTable struct {
	rules  []termRule
	ignore map[string]bool
}

var parseTermRules = sync.OnceValue(func() termTable {
	t := termTable{ignore: map[string]bool{}}
	for line := range strings.Lines(profileTermsTable) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		head, body, _ := strings.Cut(line, ":")
		if strings.TrimSpace(head) == "ignore" {
			for _, w := range strings.Fields(body) {
				t.ignore[w] = true
			}
			continue
		}
		key, value, _ := strings.Cut(strings.TrimSpace(head), "=")
		fit, clash, _ := strings.Cut(body, "|")
		t.rules = append(t.rules, termRule{key: key, value: value, fit: strings.Fields(fit), clash: strings.Fields(clash)})
	}
	return t
})

// profileTerms returns the words that fit and clash with entries: the
// table's, and each entry's own value words (clashing for allergy and
// dislike) but the table's ignored ones.
func profileTerms(entries []lore.ProfileEntry) (fit, clash []string) {
	table := parseTermRules()
	for _, e := range entries {
		value := lore.NormalizeProfileValue(e.Value)
		for _, r := range table.rules {
			base, prefix := strings.CutSuffix(r.key, "*")
			if r.value == value && (r.key == e.Key || (prefix && strings.HasPrefix(e.Key, base))) {
				fit = append(fit, r.fit...)
				clash = append(clash, r.clash...)
			}
		}
		if strings.HasPrefix(e.Key, "level_") {
			continue // the level's words are the table's; the activity is the key
		}
		for _, w := range wordsOf(value) {
			if len(w) < 3 || table.ignore[w] {
				continue
			}
			if e.Key == "allergy" || e.Key == "dislike" {
				clash = append(clash, w+"*")
			} else {
				fit = append(fit, w)
			}
		}
	}
	return fit, clash
}

// wordRE finds the words of a text.
var wordRE = regexp.MustCompile(`[\p{L}\p{N}]+(?:[-'][\p{L}\p{N}]+)*`)

// wordsOf returns the lower-case words of text.
func wordsOf(text string) []string {
	return wordRE.FindAllString(strings.ToLower(text), -1)
}

// matchAny reports whether any word matches a term ("word", or "stem*").
func matchAny(words, terms []string) bool {
	for _, t := range terms {
		stem, prefix := strings.CutSuffix(t, "*")
		for _, w := range words {
			if w == t || (prefix && strings.HasPrefix(w, stem)) {
				return true
			}
		}
	}
	return false
}
