package rules_test

import (
	"context"
	"encoding/gob"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/bench"
	"github.com/lore-memory/lore/embed/bert"
	"github.com/lore-memory/lore/extract/rules"
)

// TestFactQualityQuick scores the rules extractor alone against LoCoMo's
// observation gold facts, as `lore bench observations` does through
// ingest, in a sixth of the time (no store, no index).
// It runs only when asked:
//
//	LORE_FQ_DATA=../shared/bench/locomo/locomo_dev5.json LORE_FQ_SPLIT=tune \
//	LORE_FQ_MODEL=lore-data/models/all-MiniLM-L6-v2 go test -run TestFactQualityQuick -v ./extract/rules
//
// LORE_FQ_ALL=file.jsonl also writes every fact with whether it matched
// and the MiniLM vectors of its text and its message's index key, and
// LORE_FQ_GOLD=file.jsonl writes the gold facts' vectors instead of
// scoring (both for scripts/factscorer/train.py; keep them out of the
// repository). LORE_FQ_SCORER=1 applies the learned fact scorer
// (scorer.go) as ingestion does. LORE_FQ_CACHE=file.gob keeps the MiniLM
// vectors between runs (only changed texts are embedded again). Run with
// -timeout 0 on a loaded host.
func TestFactQualityQuick(t *testing.T) {
	path, half, model := os.Getenv("LORE_FQ_DATA"), os.Getenv("LORE_FQ_SPLIT"), os.Getenv("LORE_FQ_MODEL")
	if path == "" || model == "" {
		msg := "set LORE_FQ_DATA and LORE_FQ_MODEL to score fact quality (scripts/test-all.sh does, from ../shared/bench)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + " (required under CI=true)")
		}
		t.Skip(msg)
	}
	if half == "" {
		half = "all"
	}
	all, err := bench.LoadLoCoMo(path)
	if err != nil {
		t.Fatal(err)
	}
	gold, err := bench.LoadLoCoMoObservations(path, all)
	if err != nil {
		t.Fatal(err)
	}
	h, err := bench.ParseSplit(half)
	if err != nil {
		t.Fatal(err)
	}
	ds := all.Half(h)
	in := map[string]bool{}
	turnText := map[string]string{}
	prevText, msgKey := map[string]string{}, map[string]string{}
	var facts []bench.FactRecord
	x := rules.New()
	var dur time.Duration
	mini, err := bert.New(bert.Config{ModelDir: model})
	if err != nil {
		t.Fatal(err)
	}
	var emb lore.Embedder = mini
	// LORE_FQ_CACHE=file.gob keeps the vectors of texts seen before, so a
	// run after a rule change embeds only the texts it changed.
	if path := os.Getenv("LORE_FQ_CACHE"); path != "" {
		c := &cachedEmbedder{Embedder: mini, vecs: map[string][]float32{}}
		if f, err := os.Open(path); err == nil {
			_ = gob.NewDecoder(f).Decode(&c.vecs)
			f.Close()
		}
		defer func() {
			if f, err := os.Create(path); err == nil {
				_ = gob.NewEncoder(f).Encode(c.vecs)
				f.Close()
			}
		}()
		emb = c
	}
	// LORE_FQ_SCORER=1 applies the learned fact scorer as ingestion does.
	var scorer *rules.Scorer
	if os.Getenv("LORE_FQ_SCORER") != "" {
		if scorer, err = rules.NewScorer(); err != nil {
			t.Fatal(err)
		}
	}
	dropped := 0
	for _, sp := range ds.Spaces {
		in[sp.ID] = true
		seen := map[string]int{}
		for _, s := range sp.Sessions {
			var eps []*lore.Episode
			for i, tu := range s.Turns {
				if i > 0 {
					prevText[sp.ID+"|"+tu.ID] = s.Turns[i-1].Text
				}
				txt := tu.Text
				if i := strings.LastIndex(txt, " [shared an image: "); i >= 0 && strings.HasSuffix(txt, "]") {
					turnText[sp.ID+"|"+tu.ID] = txt[:i]
				} else {
					turnText[sp.ID+"|"+tu.ID] = txt
				}
				eps = append(eps, &lore.Episode{ID: tu.ID, Role: tu.Role, Speaker: tu.Speaker, Content: tu.Text, OccurredAt: tu.Time})
			}
			keys := map[string]string{}
			for i, ep := range eps {
				var prev *lore.Episode
				if i > 0 {
					prev = eps[i-1]
				}
				keys[ep.ID] = lore.EpisodeKey(ep, prev, nil)
				msgKey[sp.ID+"|"+ep.ID] = keys[ep.ID]
			}
			st := time.Now()
			ex, err := x.Extract(context.Background(), lore.ExtractRequest{Episodes: eps})
			dur += time.Since(st)
			if err != nil {
				t.Fatal(err)
			}
			if scorer != nil {
				kept, drop, err := scorer.Filter(context.Background(), ex, keys, emb.Info(), emb.Embed)
				if err != nil {
					t.Fatal(err)
				}
				ex.Facts, dropped = kept, dropped+len(drop)
			}
			for _, f := range ex.Facts {
				key := lore.NormalizeName(f.Subject) + "|" + f.Predicate + "|" + lore.NormalizeName(f.Object)
				if i, ok := seen[key]; ok {
					facts[i].Turns = append(facts[i].Turns, f.EpisodeIDs...)
					continue
				}
				seen[key] = len(facts)
				facts = append(facts, bench.FactRecord{Space: sp.ID, Text: f.Text, Predicate: f.Predicate, Turns: append([]string(nil), f.EpisodeIDs...), Ended: f.InvalidAt != nil})
			}
		}
	}
	var g []bench.GoldFact
	for _, x := range gold {
		if in[x.Space] {
			g = append(g, x)
		}
	}
	if out := os.Getenv("LORE_FQ_GOLD"); out != "" {
		texts := make([]string, len(g))
		for i, x := range g {
			texts[i] = x.Text
		}
		vecs, err := emb.Embed(context.Background(), texts)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := os.Create(out)
		for i, x := range g {
			raw, _ := json.Marshal(map[string]any{"space": x.Space, "turns": x.Turns, "gv": vecs[i]})
			f.Write(append(raw, 10))
		}
		f.Close()
		return
	}
	q, err := bench.ScoreFacts(context.Background(), emb, g, facts, turnText, 60)
	if os.Getenv("LORE_FQ_ALL") != "" {
		q2, _ := bench.ScoreFacts(context.Background(), emb, g, facts, turnText, 100000)
		un := map[string]bool{}
		for _, m := range q2.Unmatched {
			un[m.Space+"|"+strings.Join(m.Turns, ",")+"|"+m.Fact] = true
		}
		f, _ := os.Create(os.Getenv("LORE_FQ_ALL"))
		texts := make([]string, 0, 2*len(facts))
		for _, fr := range facts {
			k := fr.Space + "|" + fr.Turns[0]
			texts = append(texts, fr.Text, msgKey[k])
		}
		vecs, err := emb.Embed(context.Background(), texts)
		if err != nil {
			t.Fatal(err)
		}
		for i, fr := range facts {
			k := fr.Space + "|" + fr.Turns[0]
			raw, _ := json.Marshal(map[string]any{"space": fr.Space, "turn_id": fr.Turns[0], "text": fr.Text, "pred": fr.Predicate, "turn": turnText[k], "prev": prevText[k],
				"match": !un[fr.Space+"|"+strings.Join(fr.Turns, ",")+"|"+fr.Text], "ended": fr.Ended,
				"ev": vecs[2*i], "mv": vecs[2*i+1]})
			f.Write(append(raw, 10))
		}
		f.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	if scorer != nil {
		t.Logf("fact scorer dropped %d statements (threshold %.3f)", dropped, scorer.Threshold())
	}
	t.Logf("%s: facts %d coverage %.3f precision %.3f echo %.3f (extraction %v)", half, q.Facts, q.Coverage, q.Precision, q.EchoRate, dur)
	// Issue 12's targets that rules/3 meets; precision (target 0.80) is
	// guarded at where it stands, so that it cannot slip unnoticed.
	if q.Coverage < 0.55 {
		t.Errorf("coverage %.3f, want >= 0.55", q.Coverage)
	}
	if q.EchoRate > 0.02 {
		t.Errorf("echo rate %.3f, want <= 0.02", q.EchoRate)
	}
	if q.Precision < 0.55 {
		t.Errorf("precision %.3f, want >= 0.55 (0.577 tune, 0.596 validate at rules/3)", q.Precision)
	}
}

// cachedEmbedder remembers the vectors of the texts it embedded.
type cachedEmbedder struct {
	lore.Embedder
	vecs map[string][]float32
}

func (c *cachedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	var miss []string
	for _, t := range texts {
		if _, ok := c.vecs[t]; !ok {
			miss = append(miss, t)
		}
	}
	if len(miss) > 0 {
		vs, err := c.Embedder.Embed(ctx, miss)
		if err != nil {
			return nil, err
		}
		for i, t := range miss {
			c.vecs[t] = vs[i]
		}
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = c.vecs[t]
	}
	return out, nil
}
