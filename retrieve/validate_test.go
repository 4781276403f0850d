package retrieve_test

import (
	"context"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/retrieve"
)

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name    string
		change  func(*retrieve.Config)
		wantMsg string // "" = valid
	}{
		{"defaults", func(*retrieve.Config) {}, ""},
		{"rrf", func(c *retrieve.Config) { c.Fusion = retrieve.FusionRRF }, ""},
		{"empty fusion is weighted", func(c *retrieve.Config) { c.Fusion = "" }, ""},
		{"unknown fusion", func(c *retrieve.Config) { c.Fusion = "RRF" }, `fusion must be "weighted" or "rrf", got "RRF"`},
		{"unknown normalize", func(c *retrieve.Config) { c.Normalize = "z" }, "normalize must be"},
		{"unknown dense normalize", func(c *retrieve.Config) { c.DenseNormalize = "l2" }, "dense_normalize must be"},
		{"three hops", func(c *retrieve.Config) { c.MaxHops = 3 }, "max_hops must be 0, 1 or 2"},
		{"negative pool", func(c *retrieve.Config) { c.VectorPool = -1 }, "vector_pool must not be negative"},
		{"negative weight", func(c *retrieve.Config) { c.Weights.Dense = -0.5 }, "weights.dense must not be negative"},
		{"negative rrf_k", func(c *retrieve.Config) { c.RRFK = -1 }, "rrf_k must not be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := retrieve.DefaultConfig()
			tt.change(&c)
			err := c.Validate()
			if tt.wantMsg == "" {
				if err != nil {
					t.Fatalf("Validate: %v, want nil", err)
				}
				return
			}
			if lore.ErrorCode(err) != lore.EINVALID || !strings.Contains(lore.ErrorMessage(err), tt.wantMsg) {
				t.Fatalf("Validate: %v, want EINVALID containing %q", err, tt.wantMsg)
			}
		})
	}
	if err := (retrieve.Config{}).Validate(); err != nil {
		t.Errorf("zero Config: %v, want valid", err)
	}
}

func TestSearchRefusesAnInvalidConfig(t *testing.T) {
	w := newWorld(t, nil)
	sc := lore.Scope{TenantID: "t1", UserID: "u"}
	w.episode(sc, 0, "u", "I moved to Paris last spring.", nil)

	p := w.pipeline()
	p.Config.Fusion = "borda"
	if _, err := p.Search(context.Background(), retrieve.Request{Scope: sc, Query: "Paris"}); lore.ErrorCode(err) != lore.EINTERNAL || !strings.Contains(lore.ErrorMessage(err), "fusion") {
		t.Fatalf("unknown fusion: err=%v, want EINTERNAL naming fusion", err)
	}

	// The zero config: no signal on, so nothing is found, and no error.
	p.Config = retrieve.Config{}
	resp, err := p.Search(context.Background(), retrieve.Request{Scope: sc, Query: "Paris"})
	if err != nil || resp.Results == nil {
		t.Fatalf("zero config: %+v, %v; want a response", resp, err)
	}
	// BM25 alone on the zero config finds the turn.
	p.Config.Signals.BM25, p.Config.Weights.BM25 = true, 1
	resp, err = p.Search(context.Background(), retrieve.Request{Scope: sc, Query: "Paris"})
	if err != nil || len(resp.Results) == 0 || !strings.Contains(resp.Results[0].Memory, "Paris") {
		t.Fatalf("zero config + BM25: %+v, %v; want the Paris turn", resp, err)
	}
}
