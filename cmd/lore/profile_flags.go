package main

import (
	"context"
	"flag"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/llm"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/retention"
	"github.com/lore-memory/lore/retrieve"
)

// profileFlags are `lore serve`'s switches of profile-aware retrieval
// (retrieve.ProfileConfig), all off by default.
type profileFlags struct {
	blend, rerank, rewrite, evidence bool
	alpha, weight, evWeight          float64
}

func (p *profileFlags) register(fs *flag.FlagSet, e *env) {
	def := retrieve.DefaultConfig().Profile
	fs.BoolVar(&p.blend, "profile-blend", e.str("LORE_PROFILE_BLEND", "") == "true", "blend each query's embedding with the user's profile (env LORE_PROFILE_BLEND=true)")
	fs.Float64Var(&p.alpha, "profile-alpha", def.Alpha, "the query's weight in the profile blend, 0.5 to 1")
	fs.BoolVar(&p.rerank, "profile-rerank", e.str("LORE_PROFILE_RERANK", "") == "true", "rerank candidates by their fit with the user's profile (env LORE_PROFILE_RERANK=true)")
	fs.Float64Var(&p.weight, "profile-rerank-weight", def.RerankWeight, "the profile rerank's factor, 0 to 1")
	fs.BoolVar(&p.evidence, "profile-evidence", e.str("LORE_PROFILE_EVIDENCE", "") == "true", "boost the memories the profile entries closest to the query were learned from (env LORE_PROFILE_EVIDENCE=true)")
	fs.Float64Var(&p.evWeight, "profile-evidence-weight", def.EvidenceWeight, "the profile evidence boost's factor, 0 to 1")
	fs.BoolVar(&p.rewrite, "profile-rewrite", e.str("LORE_PROFILE_REWRITE", "") == "true", "rewrite queries with the profile through the LLM (LORE_LLM_BASE_URL, LORE_LLM_MODEL; env LORE_PROFILE_REWRITE=true)")
}

// apply sets the switches on pipe, refusing a configuration that
// retrieve.ProfileConfig.Validate refuses (a blend alpha below 0.5).
func (p *profileFlags) apply(pipe *retrieve.Pipeline, cfg backendConfig) error {
	pc := pipe.Config.Profile
	pc.Blend, pc.Alpha, pc.Rerank, pc.RerankWeight, pc.Rewrite = p.blend, p.alpha, p.rerank, p.weight, p.rewrite
	pc.Evidence, pc.EvidenceWeight = p.evidence, p.evWeight
	if err := pc.Validate(); err != nil {
		return lore.Errorf(lore.EINVALID, "--profile-alpha/--profile-rerank-weight/--profile-evidence-weight: %s", lore.ErrorMessage(err))
	}
	if pc.Rewrite {
		w, err := llm.NewRewriter(llm.Config{BaseURL: cfg.LLMBaseURL, Model: cfg.LLMModel, APIKey: cfg.LLMAPIKey})
		if err != nil {
			return err
		}
		pipe.Rewriter = w
	}
	pipe.Config.Profile = pc
	return nil
}

// wireProfile connects serve's ingestion and search to the profile store:
// the tenants' query log retention (retention.Policy's query_log_days) for
// ingestion, batch profile inference when an LLM is configured, and the
// profile as the attribute source of the cohort priors (when they are on).
func wireProfile(svc *ingest.Service, pipe *retrieve.Pipeline, store lore.Store, cfg backendConfig) error {
	svc.QueryLogDays = func(ctx context.Context, tenantID string) (int, error) {
		p, err := retention.Policy(ctx, store, tenantID)
		return p.QueryLogDays, err
	}
	if cfg.LLMBaseURL != "" && cfg.LLMModel != "" {
		inf, err := llm.NewProfileInferrer(llm.Config{BaseURL: cfg.LLMBaseURL, Model: cfg.LLMModel, APIKey: cfg.LLMAPIKey})
		if err != nil {
			return err
		}
		svc.ProfileInferrer = inf
	}
	if tp, ok := store.(lore.TenantProfiles); ok && pipe.CrossUser != nil && pipe.CrossUser.Attributes == nil {
		pipe.CrossUser.Attributes = retrieve.ProfileAttributes{Store: tp}
	}
	return nil
}
