package llm_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract"
	"github.com/lore-memory/lore/extract/llm"
	"github.com/lore-memory/lore/extract/rules"
)

// ExampleNew wires the extractor as LORE_EXTRACTOR=llm+rules would: replies
// cached durably in the primary store, the rules behind the model.
func ExampleNew() {
	var store lore.MetaStore // the primary store, e.g. graph/sqlite's *Store
	x, err := llm.New(llm.Config{
		BaseURL:          os.Getenv("LORE_LLM_BASE_URL"), // e.g. http://localhost:11434/v1
		APIKey:           os.Getenv("LORE_LLM_API_KEY"),
		Model:            os.Getenv("LORE_LLM_MODEL"),
		Timeout:          90 * time.Second,
		MaxTokensPerCall: 6000,
		Cache:            llm.NewMetaCache(store),
	})
	if err != nil {
		fmt.Println(lore.ErrorMessage(err))
		return
	}
	ext := extract.Fallback(x, rules.New())
	_, _ = ext.Extract(context.Background(), lore.ExtractRequest{})
	fmt.Println(x.Stats())
}
