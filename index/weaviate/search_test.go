package weaviate

import (
	"encoding/json"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/weaviate/weaviate/entities/models"
)

func TestBuildQuery(t *testing.T) {
	q := lore.IndexQuery{Scope: lore.Scope{TenantID: "Acme", UserID: "u1"}}
	got := buildQuery(q, []string{FactCollection, EpisodeCollection}, 5, `bm25:{query:"tea",properties:["text"]}`, "score")
	tenant := tenantName("Acme")
	where := `{operator:And,operands:[{operator:Equal,path:["tenant_id"],valueText:"Acme"},{operator:Equal,path:["user_id"],valueText:"u1"}]}`
	want := `{Get{` +
		`LoreFact(tenant:"` + tenant + `",where:` + where + `,bm25:{query:"tea",properties:["text"]},limit:5){lore_id _additional{score}}` +
		`LoreEpisode(tenant:"` + tenant + `",where:` + where + `,bm25:{query:"tea",properties:["text"]},limit:5){lore_id _additional{score}}` +
		`}}`
	if got != want {
		t.Fatalf("buildQuery=\n%s\nwant\n%s", got, want)
	}
}

func TestParseHits(t *testing.T) {
	both := []string{FactCollection, EpisodeCollection}
	tests := []struct {
		name    string
		data    string
		classes []string
		limit   int
		metric  string
		want    []lore.IndexHit
		wantErr bool
	}{
		{
			name: "bm25 scores are strings; merged best first",
			data: `{"LoreFact":[{"lore_id":"f1","_additional":{"score":"1.5"}},{"lore_id":"f2","_additional":{"score":"0.25"}}],
				"LoreEpisode":[{"lore_id":"e1","_additional":{"score":"0.9"}}]}`,
			classes: both, limit: 10, metric: "score",
			want: []lore.IndexHit{{ID: "f1", Kind: lore.KindFact, Score: 1.5}, {ID: "e1", Kind: lore.KindEpisode, Score: 0.9}, {ID: "f2", Kind: lore.KindFact, Score: 0.25}},
		},
		{
			name: "distance becomes cosine similarity; limit applies after merging",
			data: `{"LoreFact":[{"lore_id":"f1","_additional":{"distance":0.4}}],
				"LoreEpisode":[{"lore_id":"e1","_additional":{"distance":0.1}},{"lore_id":"e2","_additional":{"distance":0.7}}]}`,
			classes: both, limit: 2, metric: "distance",
			want: []lore.IndexHit{{ID: "e1", Kind: lore.KindEpisode, Score: 0.9}, {ID: "f1", Kind: lore.KindFact, Score: 0.6}},
		},
		{
			name:    "ties break by id",
			data:    `{"LoreFact":[{"lore_id":"b","_additional":{"score":"1"}}],"LoreEpisode":[{"lore_id":"a","_additional":{"score":"1"}}]}`,
			classes: both, limit: 10, metric: "score",
			want: []lore.IndexHit{{ID: "a", Kind: lore.KindEpisode, Score: 1}, {ID: "b", Kind: lore.KindFact, Score: 1}},
		},
		{
			name:    "a collection missing its tenant answers null",
			data:    `{"LoreFact":[{"lore_id":"f1","_additional":{"score":"2"}}],"LoreEpisode":null}`,
			classes: both, limit: 10, metric: "score",
			want: []lore.IndexHit{{ID: "f1", Kind: lore.KindFact, Score: 2}},
		},
		{
			name:    "unparsable score",
			data:    `{"LoreFact":[{"lore_id":"f1","_additional":{"score":"lots"}}]}`,
			classes: []string{FactCollection}, limit: 10, metric: "score",
			wantErr: true,
		},
		{
			name:    "missing distance",
			data:    `{"LoreFact":[{"lore_id":"f1","_additional":{}}]}`,
			classes: []string{FactCollection}, limit: 10, metric: "distance",
			wantErr: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var get any
			if err := json.Unmarshal([]byte(tt.data), &get); err != nil {
				t.Fatalf("bad fixture: %v", err)
			}
			resp := &models.GraphQLResponse{Data: map[string]models.JSONObject{"Get": get}}
			got, err := parseHits(resp, tt.classes, tt.limit, tt.metric)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("parseHits=%+v, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseHits: %v", err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("parseHits=%+v, want %+v", got, tt.want)
			}
			for i := range got {
				g, w := got[i], tt.want[i]
				if g.ID != w.ID || g.Kind != w.Kind || diff(g.Score, w.Score) > 1e-9 {
					t.Fatalf("hit %d=%+v, want %+v (all: %+v)", i, g, w, got)
				}
			}
		})
	}
}

func TestTenantMissing(t *testing.T) {
	tests := []struct {
		name string
		errs []*models.GraphQLError
		want bool
	}{
		{"only missing tenants", []*models.GraphQLError{{Message: `explorer: get class: vector search: object search at index lorefact: tenant not found: "t"`}}, true},
		{"one other error", []*models.GraphQLError{{Message: `tenant not found: "t"`}, {Message: "syntax error"}}, false},
		{"other error", []*models.GraphQLError{{Message: "vector lengths don't match: 3 vs 384"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tenantMissing(tt.errs); got != tt.want {
				t.Fatalf("tenantMissing=%v, want %v", got, tt.want)
			}
		})
	}
}

func diff(a, b float64) float64 {
	if a > b {
		return a - b
	}
	return b - a
}
