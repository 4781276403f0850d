//go:build e5

// The e5 integration test needs the multilingual-e5-small model files and
// builds only with the e5 tag: scripts/ci/51-e5.sh installs the model and
// runs it, so the plain `go test ./...` under CI=true does not fail for a
// model it was never meant to have.

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lore-memory/lore/embed/e5"
	"github.com/lore-memory/lore/storetest"
)

// TestE5Search runs `lore serve --embedder e5` (the model in process) and
// searches in Chinese and in English (checkMultilingualSearch).
func TestE5Search(t *testing.T) {
	dir := os.Getenv("LORE_E5_MODEL_DIR")
	if dir == "" {
		dir = e5.DefaultModelDir("../../lore-data")
	}
	if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
		storetest.Unavailable(t, "no e5 model in "+dir+": run scripts/e5/fetch.sh ./lore-data (or scripts/ci/51-e5.sh), or set LORE_E5_MODEL_DIR")
	}
	dir, _ = filepath.Abs(dir)
	base, _ := startServe(t, t.TempDir(), nil, "--embedder", "e5", "--e5-model-dir", dir)
	checkMultilingualSearch(t, base)
}
