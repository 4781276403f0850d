package weaviate

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/weaviate/weaviate/entities/models"
)

func TestParseURL(t *testing.T) {
	tests := []struct {
		name       string
		raw        string
		wantScheme string
		wantHost   string
		wantErr    bool
	}{
		{name: "http", raw: "http://127.0.0.1:8080", wantScheme: "http", wantHost: "127.0.0.1:8080"},
		{name: "https without port", raw: "https://weaviate.example.com", wantScheme: "https", wantHost: "weaviate.example.com"},
		{name: "weaviate scheme is plain http", raw: "weaviate://weaviate:8080", wantScheme: "http", wantHost: "weaviate:8080"},
		{name: "trailing slash", raw: "http://localhost:8080/", wantScheme: "http", wantHost: "localhost:8080"},
		{name: "surrounding spaces", raw: " http://localhost:8080 ", wantScheme: "http", wantHost: "localhost:8080"},
		{name: "empty", raw: "", wantErr: true},
		{name: "no scheme", raw: "localhost:8080", wantErr: true},
		{name: "other scheme", raw: "grpc://localhost:50051", wantErr: true},
		{name: "path", raw: "http://localhost:8080/v1", wantErr: true},
		{name: "credentials", raw: "http://user:pw@localhost:8080", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			scheme, host, err := parseURL(tt.raw)
			if tt.wantErr {
				if code := lore.ErrorCode(err); code != lore.EINVALID {
					t.Fatalf("parseURL(%q) error code=%q, want %q (err=%v)", tt.raw, code, lore.EINVALID, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseURL(%q) error: %v", tt.raw, err)
			}
			if scheme != tt.wantScheme || host != tt.wantHost {
				t.Fatalf("parseURL(%q)=(%q, %q), want (%q, %q)", tt.raw, scheme, host, tt.wantScheme, tt.wantHost)
			}
		})
	}
}

func TestTenantName(t *testing.T) {
	valid := regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	tests := []struct {
		name     string
		tenant   string
		verbatim bool
	}{
		{name: "default", tenant: "default", verbatim: true},
		{name: "hyphen and digits", tenant: "acme-2024", verbatim: true},
		{name: "upper case is hashed", tenant: "Acme", verbatim: false},
		{name: "underscore is hashed", tenant: "acme_corp", verbatim: false},
		{name: "space is hashed", tenant: "acme corp", verbatim: false},
		{name: "unicode is hashed", tenant: "société", verbatim: false},
		{name: "49 bytes is hashed", tenant: strings.Repeat("a", 49), verbatim: false},
		{name: "48 bytes is kept", tenant: strings.Repeat("a", 48), verbatim: true},
		{name: "256 bytes", tenant: strings.Repeat("é", 128), verbatim: false},
	}
	seen := map[string]string{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tenantName(tt.tenant)
			if !valid.MatchString(got) {
				t.Fatalf("tenantName(%q)=%q, not a valid Weaviate tenant name", tt.tenant, got)
			}
			if (got == tt.tenant) != tt.verbatim {
				t.Fatalf("tenantName(%q)=%q, want verbatim=%v", tt.tenant, got, tt.verbatim)
			}
			if again := tenantName(tt.tenant); again != got {
				t.Fatalf("tenantName(%q) is not deterministic: %q then %q", tt.tenant, got, again)
			}
			if other, dup := seen[got]; dup && other != tt.tenant {
				t.Fatalf("tenantName(%q)=%q collides with tenantName(%q)", tt.tenant, got, other)
			}
			seen[got] = tt.tenant
		})
	}
}

func TestObjectID(t *testing.T) {
	a, b := objectID("fact-1"), objectID("fact-2")
	if a == b {
		t.Fatalf("objectID gave %q for two different ids", a)
	}
	if again := objectID("fact-1"); again != a {
		t.Fatalf("objectID(fact-1)=%q then %q, want stable", a, again)
	}
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(a) {
		t.Fatalf("objectID(fact-1)=%q, want a UUIDv5", a)
	}
}

func TestGQLString(t *testing.T) {
	tests := []struct {
		name string
		in   string
	}{
		{name: "plain", in: "where does Alice live"},
		{name: "quotes and braces", in: `"}) {Get{LoreFact{text}}} #`},
		{name: "backslash", in: `C:\path\to`},
		{name: "newline tab", in: "a\nb\tc"},
		{name: "control chars", in: "a\x00\x07\x0b\x1fb"},
		{name: "non-BMP", in: "party 🎉 time"},
		{name: "invalid utf8", in: "bad \xff byte"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := gqlString(tt.in)
			// The literal must be one string token: starts and ends with a
			// quote and has no unescaped quote or raw control character.
			if len(got) < 2 || got[0] != '"' || got[len(got)-1] != '"' {
				t.Fatalf("gqlString(%q)=%s, want a quoted literal", tt.in, got)
			}
			for i := 1; i < len(got)-1; i++ {
				if got[i] < 0x20 {
					t.Fatalf("gqlString(%q)=%s holds raw control byte %#x", tt.in, got, got[i])
				}
				if got[i] == '\\' {
					i++ // skip the escaped character
					continue
				}
				if got[i] == '"' {
					t.Fatalf("gqlString(%q)=%s has an unescaped quote at %d", tt.in, got, i)
				}
			}
			var back string
			if err := json.Unmarshal([]byte(got), &back); err != nil {
				t.Fatalf("gqlString(%q)=%s does not decode: %v", tt.in, got, err)
			}
			if want := strings.ToValidUTF8(tt.in, "\uFFFD"); back != want {
				t.Fatalf("gqlString(%q) decodes to %q, want %q", tt.in, back, want)
			}
		})
	}
}

func TestQueryFilter(t *testing.T) {
	since := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	until := time.Date(2024, 6, 1, 0, 0, 0, 0, time.FixedZone("CEST", 2*3600))
	tests := []struct {
		name string
		q    lore.IndexQuery
		want string
	}{
		{
			name: "user only filters tenant and user",
			q:    lore.IndexQuery{Scope: lore.Scope{TenantID: "t", UserID: "u"}},
			want: `{operator:And,operands:[{operator:Equal,path:["tenant_id"],valueText:"t"},{operator:Equal,path:["user_id"],valueText:"u"}]}`,
		},
		{
			name: "agent only selects the agent's own documents (no user)",
			q:    lore.IndexQuery{Scope: lore.Scope{TenantID: "t", AgentID: "a"}},
			want: `{operator:And,operands:[{operator:Equal,path:["tenant_id"],valueText:"t"},{operator:Equal,path:["user_id"],valueText:""},{operator:Equal,path:["agent_id"],valueText:"a"}]}`,
		},
		{
			name: "full scope",
			q:    lore.IndexQuery{Scope: lore.Scope{TenantID: "t", UserID: "u", AgentID: "a", RunID: "r"}},
			want: `{operator:And,operands:[{operator:Equal,path:["tenant_id"],valueText:"t"},{operator:Equal,path:["user_id"],valueText:"u"},{operator:Equal,path:["agent_id"],valueText:"a"},{operator:Equal,path:["run_id"],valueText:"r"}]}`,
		},
		{
			name: "time range in UTC, since inclusive, until exclusive",
			q:    lore.IndexQuery{Scope: lore.Scope{TenantID: "t", UserID: "u"}, Since: &since, Until: &until},
			want: `{operator:And,operands:[{operator:Equal,path:["tenant_id"],valueText:"t"},{operator:Equal,path:["user_id"],valueText:"u"},` +
				`{operator:GreaterThanEqual,path:["time"],valueDate:"2024-05-01T00:00:00Z"},{operator:LessThan,path:["time"],valueDate:"2024-05-31T22:00:00Z"}]}`,
		},
		{
			name: "hostile ids stay string literals",
			q:    lore.IndexQuery{Scope: lore.Scope{TenantID: "t", UserID: `u"}]} x`}},
			want: `{operator:And,operands:[{operator:Equal,path:["tenant_id"],valueText:"t"},{operator:Equal,path:["user_id"],valueText:"u\"}]} x"}]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := gqlWhere(queryFilter(tt.q)); got != tt.want {
				t.Fatalf("gqlWhere(queryFilter)=\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestWhereBuilderRoundTrip(t *testing.T) {
	scope := lore.Scope{TenantID: "t", UserID: "u", AgentID: "a"}
	f := idsFilter(scope, []string{"id-1", "id-2"})
	got, err := json.Marshal(whereBuilder(f).Build())
	if err != nil {
		t.Fatalf("marshal built filter: %v", err)
	}
	want, err := json.Marshal(f)
	if err != nil {
		t.Fatalf("marshal filter: %v", err)
	}
	if string(got) != string(want) {
		t.Fatalf("whereBuilder(f).Build()=%s, want %s", got, want)
	}
}

func TestGQLVector(t *testing.T) {
	nan := float32(0)
	nan = nan / nan
	tests := []struct {
		name   string
		in     []float32
		want   string
		wantOK bool
	}{
		{name: "simple", in: []float32{0.5, -1, 0}, want: "[0.5,-1,0]", wantOK: true},
		{name: "float32 precision", in: []float32{0.1}, want: "[0.1]", wantOK: true},
		{name: "tiny", in: []float32{1e-30}, want: "[1e-30]", wantOK: true},
		{name: "nan", in: []float32{1, nan}, wantOK: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := gqlVector(tt.in)
			if ok != tt.wantOK || got != tt.want {
				t.Fatalf("gqlVector(%v)=(%q, %v), want (%q, %v)", tt.in, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestCollectionsFor(t *testing.T) {
	tests := []struct {
		name    string
		kinds   []lore.DocKind
		want    []string
		wantErr bool
	}{
		{name: "none means both", kinds: nil, want: []string{FactCollection, EpisodeCollection}},
		{name: "facts", kinds: []lore.DocKind{lore.KindFact}, want: []string{FactCollection}},
		{name: "episodes", kinds: []lore.DocKind{lore.KindEpisode}, want: []string{EpisodeCollection}},
		{name: "duplicates collapse", kinds: []lore.DocKind{lore.KindEpisode, lore.KindEpisode}, want: []string{EpisodeCollection}},
		{name: "unknown", kinds: []lore.DocKind{"chunk"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := collectionsFor(tt.kinds)
			if tt.wantErr {
				if lore.ErrorCode(err) != lore.EINVALID {
					t.Fatalf("collectionsFor(%v) err=%v, want EINVALID", tt.kinds, err)
				}
				return
			}
			if err != nil || strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Fatalf("collectionsFor(%v)=(%v, %v), want %v", tt.kinds, got, err, tt.want)
			}
		})
	}
}

func TestCheckCollection(t *testing.T) {
	withoutTerms := collectionSchema(FactCollection)
	withoutTerms.Properties = withoutTerms.Properties[:len(withoutTerms.Properties)-2]
	noMT := collectionSchema(FactCollection)
	noMT.MultiTenancyConfig = nil
	noAuto := collectionSchema(FactCollection)
	noAuto.MultiTenancyConfig.AutoTenantCreation = false
	dot := collectionSchema(FactCollection)
	dot.VectorIndexConfig = map[string]any{"distance": "dot"}
	retokenized := collectionSchema(FactCollection)
	retokenized.Properties[1].Tokenization = "word" // tenant_id
	tests := []struct {
		name  string
		class *models.Class
		code  string
	}{
		{name: "as created", class: collectionSchema(FactCollection), code: ""},
		{name: "missing terms", class: withoutTerms, code: lore.ECONFLICT},
		{name: "no multi-tenancy", class: noMT, code: lore.ECONFLICT},
		{name: "no auto tenant creation", class: noAuto, code: lore.ECONFLICT},
		{name: "dot distance", class: dot, code: lore.ECONFLICT},
		{name: "scope property tokenized by word", class: retokenized, code: lore.ECONFLICT},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lore.ErrorCode(checkCollection(tt.class)); got != tt.code {
				t.Fatalf("checkCollection code=%q, want %q", got, tt.code)
			}
		})
	}
}

func TestBefore136(t *testing.T) {
	tests := []struct {
		version string
		want    bool
	}{
		{"1.35.2", true}, {"1.27.0", true}, {"1.36.0", false}, {"1.40.1", false}, {"2.0.0", false}, {"", false}, {"dev", false},
	}
	for _, tt := range tests {
		if got := before136(tt.version); got != tt.want {
			t.Errorf("before136(%q)=%v, want %v", tt.version, got, tt.want)
		}
	}
}
