// Package extract holds what Lore's extractors share. The extractors
// themselves live in extract/rules (offline, the default) and extract/llm.
package extract

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/lore-memory/lore"
)

// Fallback returns an Extractor that asks primary and, when primary fails
// for any reason, secondary — as LORE_EXTRACTOR=llm+rules puts the rules
// behind the model. The extraction names the extractor that produced it in
// Extractor, and after a fallback says in Rejected why the primary's output
// is missing. Nothing falls back once the caller's context is done.
func Fallback(primary, secondary lore.Extractor) lore.Extractor {
	return &fallback{primary: primary, secondary: secondary, log: slog.Default()}
}

type fallback struct {
	primary, secondary lore.Extractor
	log                *slog.Logger
}

func (f *fallback) Extract(ctx context.Context, req lore.ExtractRequest) (*lore.Extraction, error) {
	ext, err := f.primary.Extract(ctx, req)
	if err == nil && ext != nil {
		return ext, nil
	}
	if err == nil {
		err = lore.Errorf(lore.EINTERNAL, "extract: the primary extractor returned no extraction")
	}
	if ctx.Err() != nil {
		return nil, err
	}
	f.log.Warn("extract: primary extractor failed; using the fallback",
		"tenant", req.Scope.TenantID, "episodes", len(req.Episodes), "err", err)
	ext, err2 := f.secondary.Extract(ctx, req)
	switch {
	case err2 != nil:
		return nil, fmt.Errorf("extract: primary failed: %w; fallback failed too: %w", err, err2)
	case ext == nil:
		return nil, fmt.Errorf("extract: primary failed: %w; fallback returned no extraction", err)
	}
	if ext.Extractor == "" {
		ext.Extractor = "fallback"
	}
	ext.Rejected = append(ext.Rejected, fmt.Sprintf("primary extractor failed (%s), so %s extracted instead", lore.ErrorMessage(err), ext.Extractor))
	return ext, nil
}

// Forget implements lore.Forgetter for whichever of the two extractors keeps
// anything of a scope.
func (f *fallback) Forget(ctx context.Context, scope lore.Scope) error {
	for _, x := range []lore.Extractor{f.primary, f.secondary} {
		if fg, ok := x.(lore.Forgetter); ok {
			if err := fg.Forget(ctx, scope); err != nil {
				return err
			}
		}
	}
	return nil
}
