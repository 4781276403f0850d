package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

// MatchCosine is the cosine between a fact's text and a gold fact's text at
// or above which the two state the same thing (bench/README.md § Fact
// quality).
const MatchCosine = 0.6

// echoPrefix is how many leading characters of a turn a fact must hold
// verbatim to count as a copy of it.
const echoPrefix = 60

// GoldFact is one of LoCoMo's `observation` facts: what a speaker said in
// some turns, written by an annotator.
type GoldFact struct {
	Space   string   // the sample_id
	Speaker string   // whose observation it is
	Text    string   // the annotated fact
	Turns   []string // the dia_ids it cites, normalised; at least one
}

// FactRecord is one fact an extractor stored, with the benchmark turns its
// source episodes came from.
type FactRecord struct {
	Space     string
	Text      string
	Predicate string
	Turns     []string
	Ended     bool // invalid_at is set
}

type locomoObservations struct {
	SampleID    string                                    `json:"sample_id"`
	Observation map[string]map[string][][]json.RawMessage `json:"observation"`
}

// LoadLoCoMoObservations reads the gold facts of a LoCoMo file (gzip by
// suffix): every `session_N_observation[speaker]` entry [text, dia_id(s)],
// its ids normalised as for evidence. Entries whose ids name no turn of ds
// are skipped, and so are spaces ds does not hold.
func LoadLoCoMoObservations(path string, ds *Dataset) ([]GoldFact, error) {
	data, err := readMaybeGzip(path)
	if err != nil {
		return nil, fmt.Errorf("locomo: %w", err)
	}
	return ParseLoCoMoObservations(data, ds)
}

// ParseLoCoMoObservations is LoadLoCoMoObservations on the file's bytes.
func ParseLoCoMoObservations(data []byte, ds *Dataset) ([]GoldFact, error) {
	var samples []locomoObservations
	if err := json.Unmarshal(data, &samples); err != nil {
		return nil, fmt.Errorf("LoCoMo JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	var out []GoldFact
	for _, s := range samples {
		// Sessions in order, so the gold list is stable across runs.
		keys := make([]string, 0, len(s.Observation))
		for k := range s.Observation {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return sessionNumber(keys[i]) < sessionNumber(keys[j]) })
		for _, k := range keys {
			speakers := make([]string, 0, len(s.Observation[k]))
			for sp := range s.Observation[k] {
				speakers = append(speakers, sp)
			}
			sort.Strings(speakers)
			for _, sp := range speakers {
				for _, entry := range s.Observation[k][sp] {
					if len(entry) < 2 {
						continue
					}
					var text string
					if json.Unmarshal(entry[0], &text) != nil || strings.TrimSpace(text) == "" {
						continue
					}
					var ids []string
					var one string
					if json.Unmarshal(entry[1], &one) == nil {
						ids = []string{one}
					} else if json.Unmarshal(entry[1], &ids) != nil {
						continue
					}
					turns := normaliseTurnIDs(ds, s.SampleID, ids)
					if len(turns) == 0 {
						continue
					}
					out = append(out, GoldFact{Space: s.SampleID, Speaker: sp, Text: strings.TrimSpace(text), Turns: turns})
				}
			}
		}
	}
	return out, nil
}

var sessionNumberRe = regexp.MustCompile(`\d+`)

func sessionNumber(key string) int {
	n := 0
	fmt.Sscan(sessionNumberRe.FindString(key), &n)
	return n
}

// normaliseTurnIDs applies the evidence normalisation and keeps the ids that
// name a turn of the space.
func normaliseTurnIDs(ds *Dataset, space string, ids []string) []string {
	var out []string
	for _, id := range ids {
		for _, m := range evidenceRe.FindAllStringSubmatch(id, -1) {
			t := "D" + m[1] + ":" + m[2]
			if _, ok := ds.SessionOf[space+"|"+t]; ok && !contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// FactQuality is the fact-quality report of `lore bench observations`.
type FactQuality struct {
	Data      string  `json:"data,omitempty"`
	Split     Split   `json:"split,omitempty"`
	SplitSeed string  `json:"split_seed,omitempty"`
	Extractor string  `json:"extractor,omitempty"`
	Spaces    int     `json:"spaces"`
	Turns     int     `json:"turns"`
	Gold      int     `json:"gold_facts"`
	Facts     int     `json:"facts"`
	Ended     int     `json:"ended_facts"`
	Covered   int     `json:"covered"`
	Matched   int     `json:"matched"`
	Echoes    int     `json:"echoes"`
	Coverage  float64 `json:"coverage"`
	Precision float64 `json:"precision"`
	EchoRate  float64 `json:"echo_rate"`
	// Failures are the turns ingestion refused; the run went on without them.
	Failures
	// FactsPerTurn is Facts / Turns.
	FactsPerTurn  float64 `json:"facts_per_turn"`
	IngestSeconds float64 `json:"ingest_seconds,omitempty"`
	// Unmatched and Uncovered are samples for reading, when asked for.
	Unmatched []FactMiss `json:"unmatched,omitempty"`
	Uncovered []GoldMiss `json:"uncovered,omitempty"`
}

// FactMiss is an extracted fact that matched no gold fact of its turns.
type FactMiss struct {
	Space     string   `json:"space"`
	Turns     []string `json:"turns"`
	Fact      string   `json:"fact"`
	Turn      string   `json:"turn_text"`
	Nearest   string   `json:"nearest_gold,omitempty"`
	Cosine    float64  `json:"cosine"`
	Echo      bool     `json:"echo,omitempty"`
	Predicate string   `json:"predicate,omitempty"`
}

// GoldMiss is a gold fact no extracted fact of its turns matched.
type GoldMiss struct {
	Space   string   `json:"space"`
	Turns   []string `json:"turns"`
	Gold    string   `json:"gold"`
	Turn    string   `json:"turn_text"`
	Nearest string   `json:"nearest_fact,omitempty"`
	Cosine  float64  `json:"cosine"`
}

// ScoreFacts scores extracted facts against gold facts (bench/README.md §
// Fact quality): coverage is the share of gold facts that some fact citing
// one of their turns matches (cosine ≥ MatchCosine); precision the share of
// facts that match a gold fact of a turn they cite; echo rate the share of
// facts whose text holds the first 60 characters of a cited turn verbatim
// (case and spacing aside). turnText maps "space|turn" to the turn's text.
// sample > 0 fills Unmatched and Uncovered with that many of each, chosen
// by a fixed seed.
func ScoreFacts(ctx context.Context, emb lore.Embedder, gold []GoldFact, facts []FactRecord, turnText map[string]string, sample int) (*FactQuality, error) {
	if emb == nil {
		return nil, lore.Errorf(lore.EINVALID, "fact quality needs an embedder (MiniLM): none is configured")
	}
	gv, err := embedAll(ctx, emb, func(i int) string { return gold[i].Text }, len(gold))
	if err != nil {
		return nil, err
	}
	fv, err := embedAll(ctx, emb, func(i int) string { return facts[i].Text }, len(facts))
	if err != nil {
		return nil, err
	}
	// Gold and facts by cited turn.
	goldOf := map[string][]int{}
	for i, g := range gold {
		for _, t := range g.Turns {
			goldOf[g.Space+"|"+t] = append(goldOf[g.Space+"|"+t], i)
		}
	}
	q := &FactQuality{Gold: len(gold), Facts: len(facts)}
	goldBest := make([]float64, len(gold))
	goldNearest := make([]int, len(gold))
	for i := range goldNearest {
		goldNearest[i] = -1
	}
	var unmatched []FactMiss
	for i, f := range facts {
		if f.Ended {
			q.Ended++
		}
		best, nearest := -1.0, -1
		echo := false
		for _, t := range f.Turns {
			key := f.Space + "|" + t
			if isEcho(f.Text, turnText[key]) {
				echo = true
			}
			for _, gi := range goldOf[key] {
				c := lore.Cosine(fv[i], gv[gi])
				if c > best {
					best, nearest = c, gi
				}
				if c > goldBest[gi] || goldNearest[gi] < 0 {
					goldBest[gi], goldNearest[gi] = c, i
				}
			}
		}
		if echo {
			q.Echoes++
		}
		if best >= MatchCosine {
			q.Matched++
			continue
		}
		m := FactMiss{Space: f.Space, Turns: f.Turns, Fact: f.Text, Echo: echo, Predicate: f.Predicate, Cosine: round4(max(best, 0))}
		if len(f.Turns) > 0 {
			m.Turn = turnText[f.Space+"|"+f.Turns[0]]
		}
		if nearest >= 0 {
			m.Nearest = gold[nearest].Text
		}
		unmatched = append(unmatched, m)
	}
	var uncovered []GoldMiss
	for gi, g := range gold {
		if goldNearest[gi] >= 0 && goldBest[gi] >= MatchCosine {
			q.Covered++
			continue
		}
		m := GoldMiss{Space: g.Space, Turns: g.Turns, Gold: g.Text, Turn: turnText[g.Space+"|"+g.Turns[0]], Cosine: round4(max(goldBest[gi], 0))}
		if goldNearest[gi] >= 0 {
			m.Nearest = facts[goldNearest[gi]].Text
		}
		uncovered = append(uncovered, m)
	}
	q.Coverage = ratio(q.Covered, q.Gold)
	q.Precision = ratio(q.Matched, q.Facts)
	q.EchoRate = ratio(q.Echoes, q.Facts)
	if sample > 0 {
		rng := rand.New(rand.NewPCG(1, 2))
		q.Unmatched = pick(rng, unmatched, sample)
		q.Uncovered = pick(rng, uncovered, sample)
	}
	return q, nil
}

func pick[T any](rng *rand.Rand, list []T, n int) []T {
	if n >= len(list) {
		return list
	}
	idx := rng.Perm(len(list))[:n]
	sort.Ints(idx)
	out := make([]T, n)
	for i, j := range idx {
		out[i] = list[j]
	}
	return out
}

func ratio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return round4(float64(n) / float64(d))
}

// isEcho reports whether fact holds the first echoPrefix characters of turn.
func isEcho(fact, turn string) bool {
	turn = squash(turn)
	if turn == "" {
		return false
	}
	if r := []rune(turn); len(r) > echoPrefix {
		turn = string(r[:echoPrefix])
	}
	return strings.Contains(squash(fact), turn)
}

func squash(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// embedBatch is how many texts one Embed call takes.
const embedBatch = 64

func embedAll(ctx context.Context, emb lore.Embedder, text func(int) string, n int) ([][]float32, error) {
	out := make([][]float32, 0, n)
	for start := 0; start < n; start += embedBatch {
		end := min(start+embedBatch, n)
		batch := make([]string, 0, end-start)
		for i := start; i < end; i++ {
			batch = append(batch, text(i))
		}
		vs, err := emb.Embed(ctx, batch)
		if err != nil {
			return nil, fmt.Errorf("bench: embed: %w", err)
		}
		if len(vs) != len(batch) {
			return nil, fmt.Errorf("bench: embed: %d vectors for %d texts", len(vs), len(batch))
		}
		out = append(out, vs...)
	}
	return out, nil
}

// Observations ingests every space of ds as Run does (one user per
// conversation, turn ids as source ids), reads back the facts stored for it,
// and scores them against gold.
func (r *Runner) Observations(ctx context.Context, ds *Dataset, gold []GoldFact, sample int) (*FactQuality, error) {
	spaces := ds.Spaces
	if r.Limit > 0 && r.Limit < len(spaces) {
		spaces = spaces[:r.Limit]
	}
	tenant := r.Tenant
	if tenant == "" {
		tenant = "bench-" + ds.Name
	}
	inSpace := map[string]bool{}
	turnText := map[string]string{}
	total := 0
	for _, sp := range spaces {
		inSpace[sp.ID] = true
		total += sp.turns()
		for _, s := range sp.Sessions {
			for _, t := range s.Turns {
				turnText[sp.ID+"|"+t.ID] = turnOwnText(t.Text)
			}
		}
	}
	var facts []FactRecord
	var fails Failures
	prog := newProgress(r.Progress, "ingest", total)
	var ingestTime time.Duration
	for _, sp := range spaces {
		scope := lore.Scope{TenantID: tenant, UserID: sp.ID}
		if _, err := r.Ingest.Store.DeleteScope(ctx, scope); err != nil {
			return nil, fmt.Errorf("bench: clear %s: %w", sp.ID, err)
		}
		if err := r.Ingest.Index.DeleteScope(ctx, scope); err != nil {
			return nil, fmt.Errorf("bench: clear index %s: %w", sp.ID, err)
		}
		start := time.Now()
		for _, s := range sp.Sessions {
			if err := r.ingestSession(ctx, scope, s, &fails); err != nil {
				return nil, fmt.Errorf("bench: ingest %s %s: %w", sp.ID, s.ID, err)
			}
			prog.add(len(s.Turns))
		}
		ingestTime += time.Since(start)
		got, err := storedFacts(ctx, r.Ingest.Store, scope)
		if err != nil {
			return nil, err
		}
		facts = append(facts, got...)
	}
	prog.done(ingestTime)
	var g []GoldFact
	for _, x := range gold {
		if inSpace[x.Space] {
			g = append(g, x)
		}
	}
	q, err := ScoreFacts(ctx, r.Ingest.Embedder, g, facts, turnText, sample)
	if err != nil {
		return nil, err
	}
	q.Spaces, q.Turns, q.Failures = len(spaces), total, fails
	q.Split, q.SplitSeed = ds.Split, SplitSeed
	if q.Split == "" {
		q.Split = SplitAll
	}
	q.FactsPerTurn = ratio(q.Facts, total)
	q.IngestSeconds = round4(ingestTime.Seconds())
	return q, nil
}

// turnOwnText drops the image caption ParseLoCoMo appends to a turn: the
// echo test is about the words the speaker wrote.
func turnOwnText(text string) string {
	if i := strings.LastIndex(text, " [shared an image: "); i >= 0 && strings.HasSuffix(text, "]") {
		return text[:i]
	}
	if strings.HasPrefix(text, "[shared an image: ") {
		return ""
	}
	return text
}

// storedFacts lists every fact of a scope, ended ones too, with the source
// ids of their episodes.
func storedFacts(ctx context.Context, store lore.GraphStore, scope lore.Scope) ([]FactRecord, error) {
	eps, err := store.FindEpisodes(ctx, lore.EpisodeFilter{Scope: scope})
	if err != nil {
		return nil, fmt.Errorf("bench: episodes of %s: %w", scope.UserID, err)
	}
	source := map[string]string{}
	for _, ep := range eps {
		source[ep.ID] = ep.SourceID
	}
	fs, err := store.FindFacts(ctx, lore.FactFilter{Scope: scope, IncludeInvalidated: true})
	if err != nil {
		return nil, fmt.Errorf("bench: facts of %s: %w", scope.UserID, err)
	}
	out := make([]FactRecord, 0, len(fs))
	for _, f := range fs {
		rec := FactRecord{Space: scope.UserID, Text: f.Text, Predicate: f.Predicate, Ended: f.InvalidAt != nil}
		for _, id := range f.SourceEpisodeIDs {
			if s := source[id]; s != "" && !contains(rec.Turns, s) {
				rec.Turns = append(rec.Turns, s)
			}
		}
		out = append(out, rec)
	}
	// Store order is not promised; sort so samples are stable.
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Space != out[j].Space {
			return out[i].Space < out[j].Space
		}
		return strings.Join(out[i].Turns, ",")+out[i].Text < strings.Join(out[j].Turns, ",")+out[j].Text
	})
	return out, nil
}

// WriteMarkdown writes the figures and the samples.
func (q *FactQuality) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "## Fact quality (LoCoMo observation, cosine ≥ %.1f)\n\n", MatchCosine)
	if q.Split != "" {
		fmt.Fprintf(w, "split: %s (seed %s), ", q.Split, q.SplitSeed)
	}
	if q.Records > 0 {
		fmt.Fprintf(w, "%d turns refused by ingestion, ", q.Records)
	}
	fmt.Fprintf(w, "%d conversations, %d turns, %d gold facts, ingest %.1f s\n\n", q.Spaces, q.Turns, q.Gold, q.IngestSeconds)
	fmt.Fprintln(w, "| facts | facts/turn | ended | coverage | precision | echo rate |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|")
	fmt.Fprintf(w, "| %d | %.2f | %d | %.3f | %.3f | %.3f |\n", q.Facts, q.FactsPerTurn, q.Ended, q.Coverage, q.Precision, q.EchoRate)
	if len(q.Unmatched) > 0 {
		fmt.Fprintf(w, "\n### Extracted facts matching no gold fact of their turns (%d shown)\n\n", len(q.Unmatched))
		for _, m := range q.Unmatched {
			echo := ""
			if m.Echo {
				echo = " ECHO"
			}
			fmt.Fprintf(w, "- %s %s [%s]%s %q\n  turn: %q\n  nearest gold (%.2f): %q\n", m.Space, strings.Join(m.Turns, ","), m.Predicate, echo, m.Fact, m.Turn, m.Cosine, m.Nearest)
		}
	}
	if len(q.Uncovered) > 0 {
		fmt.Fprintf(w, "\n### Gold facts no extracted fact covers (%d shown)\n\n", len(q.Uncovered))
		for _, m := range q.Uncovered {
			fmt.Fprintf(w, "- %s %s %q\n  turn: %q\n  nearest fact (%.2f): %q\n", m.Space, strings.Join(m.Turns, ","), m.Gold, m.Turn, m.Cosine, m.Nearest)
		}
	}
}
