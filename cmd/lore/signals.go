package main

import (
	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/retrieve"
)

// configurePipeline applies serve's --retrieval file (the ranking signals,
// policies, MMR… over the defaults) and --intent strategy; the LLM
// strategies ask the extractor's endpoint (LORE_LLM_BASE_URL, LORE_LLM_MODEL,
// LORE_LLM_API_KEY).
func configurePipeline(pipe *retrieve.Pipeline, retrievalFile, intent string, cfg backendConfig) error {
	if err := applyRetrievalFile(pipe, retrievalFile); err != nil {
		return err
	}
	if err := pipe.Config.Personal.Rule.Validate(); err != nil {
		return lore.Errorf(lore.EINVALID, "--retrieval: %v", err)
	}
	if err := pipe.Config.Personal.Collaborative.Validate(); err != nil {
		return lore.Errorf(lore.EINVALID, "--retrieval: %v", err)
	}
	cl, err := retrieve.NewIntentClassifier(intent, nil, retrieve.LLMIntentConfig{BaseURL: cfg.LLMBaseURL, Model: cfg.LLMModel, APIKey: cfg.LLMAPIKey})
	if err != nil {
		return lore.Errorf(lore.EINVALID, "--intent: %v (the llm strategies need LORE_LLM_BASE_URL and LORE_LLM_MODEL)", err)
	}
	pipe.Intent = cl
	if pipe.Feedback != nil && (pipe.Config.Personal.ColdStart.Weight > 0 || pipe.Config.Personal.Collaborative.Weight > 0) {
		// serve's wireProfile gives it the profile store's attributes
		// (role, expertise, locale) for the cohorts.
		pipe.CrossUser = &retrieve.CrossUser{Store: pipe.Feedback}
	}
	return nil
}
