package extract_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract"
)

// stub is an Extractor whose behaviour is a function field.
type stub struct {
	calls   int
	extract func(context.Context) (*lore.Extraction, error)
}

func (s *stub) Extract(ctx context.Context, _ lore.ExtractRequest) (*lore.Extraction, error) {
	s.calls++
	return s.extract(ctx)
}

func named(name string) func(context.Context) (*lore.Extraction, error) {
	return func(context.Context) (*lore.Extraction, error) {
		return &lore.Extraction{Extractor: name, Facts: []lore.ExtractedFact{{Subject: "user", Predicate: "likes", Object: name}}}, nil
	}
}

func failing(err error) func(context.Context) (*lore.Extraction, error) {
	return func(context.Context) (*lore.Extraction, error) { return nil, err }
}

func TestFallback(t *testing.T) {
	unavailable := lore.Errorf(lore.EUNAVAILABLE, "llm: the model endpoint is unavailable after 4 attempts")
	tests := []struct {
		name           string
		primary        func(context.Context) (*lore.Extraction, error)
		secondary      func(context.Context) (*lore.Extraction, error)
		cancel         bool
		wantExtractor  string
		wantCode       string // error code; "" for success
		wantSecondary  int
		wantRejectedIn string
	}{
		{name: "primary succeeds", primary: named("llm/m/v1"), secondary: named("rules/1"), wantExtractor: "llm/m/v1"},
		{name: "primary fails", primary: failing(unavailable), secondary: named("rules/1"), wantExtractor: "rules/1", wantSecondary: 1,
			wantRejectedIn: "primary extractor failed (llm: the model endpoint is unavailable after 4 attempts), so rules/1 extracted instead"},
		{name: "primary fails with a plain error", primary: failing(errors.New("boom")), secondary: named("rules/1"), wantExtractor: "rules/1", wantSecondary: 1,
			wantRejectedIn: "internal error"},
		{name: "primary returns nothing", primary: func(context.Context) (*lore.Extraction, error) { return nil, nil }, secondary: named("rules/1"),
			wantExtractor: "rules/1", wantSecondary: 1},
		{name: "unnamed fallback is named", primary: failing(unavailable), secondary: named(""), wantExtractor: "fallback", wantSecondary: 1},
		{name: "both fail", primary: failing(unavailable), secondary: failing(errors.New("rules broke")), wantCode: lore.EUNAVAILABLE, wantSecondary: 1},
		{name: "caller gave up", primary: func(ctx context.Context) (*lore.Extraction, error) { return nil, ctx.Err() }, secondary: named("rules/1"),
			cancel: true, wantCode: lore.EINTERNAL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			primary, secondary := &stub{extract: tt.primary}, &stub{extract: tt.secondary}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancel {
				cancel()
			}
			ext, err := extract.Fallback(primary, secondary).Extract(ctx, lore.ExtractRequest{Scope: lore.Scope{TenantID: "t", UserID: "u"}})
			if got := lore.ErrorCode(err); got != tt.wantCode {
				t.Fatalf("error code=%q (%v), want %q", got, err, tt.wantCode)
			}
			if primary.calls != 1 || secondary.calls != tt.wantSecondary {
				t.Errorf("calls primary=%d secondary=%d, want 1 and %d", primary.calls, secondary.calls, tt.wantSecondary)
			}
			if tt.wantCode != "" {
				if tt.wantSecondary > 0 && !strings.Contains(err.Error(), "rules broke") {
					t.Errorf("error %q, want both failures named", err)
				}
				return
			}
			if ext.Extractor != tt.wantExtractor {
				t.Errorf("Extractor=%q, want %q", ext.Extractor, tt.wantExtractor)
			}
			if tt.wantRejectedIn != "" && (len(ext.Rejected) != 1 || !strings.Contains(ext.Rejected[0], tt.wantRejectedIn)) {
				t.Errorf("Rejected=%q, want one note containing %q", ext.Rejected, tt.wantRejectedIn)
			}
			if tt.wantSecondary == 0 && len(ext.Rejected) != 0 {
				t.Errorf("Rejected=%q, want none without a fallback", ext.Rejected)
			}
		})
	}
}
