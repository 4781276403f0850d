package onnxrt

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ManifestFile is the file a model's fetch script writes beside the model:
// its name, dimension and a sha256 per file.
const ManifestFile = "manifest.json"

type manifest struct {
	Name  string `json:"name"`
	Dim   int    `json:"dim"`
	Files map[string]struct {
		SHA256 string `json:"sha256"`
	} `json:"files"`
}

// VerifyModelDir checks that dir's manifest describes the model name of dim
// dimensions and that each of files matches its checksum there, and returns
// the checksums by file name. A directory that cannot be used (not
// installed, incomplete, corrupt) is reported through unusable, which says
// how to repair it; other failures (an unreadable file) are returned
// wrapped.
func VerifyModelDir(dir, name string, dim int, files []string, unusable func(format string, args ...any) error) (map[string]string, error) {
	raw, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, unusable("the model files are not installed")
	} else if err != nil {
		return nil, fmt.Errorf("%s: read manifest: %w", name, err)
	}
	var man manifest
	if err := json.Unmarshal(raw, &man); err != nil {
		return nil, unusable("manifest.json is not valid JSON: %v", err)
	}
	if man.Name != name || man.Dim != dim {
		return nil, unusable("manifest.json describes %q (%d dimensions), want %q (%d)", man.Name, man.Dim, name, dim)
	}
	sums := make(map[string]string, len(files))
	for _, file := range files {
		want := man.Files[file].SHA256
		if want == "" {
			return nil, unusable("manifest.json lists no checksum for %s", file)
		}
		got, err := fileSHA256(filepath.Join(dir, file))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, unusable("%s is missing", file)
		} else if err != nil {
			return nil, fmt.Errorf("%s: checksum %s: %w", name, file, err)
		}
		if got != want {
			return nil, unusable("%s has sha256 %s, the manifest says %s", file, got, want)
		}
		sums[file] = got
	}
	return sums, nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Batching bounds. Texts are sorted by length and cut into batches of at
// most maxBatchRows rows, maxBatchTokens padded tokens and
// maxBatchAttention rows × len², which keeps padding low and the attention
// buffers (rows × heads × len² floats) small, so that ONNX Runtime's arena,
// which keeps its peak, stays within the memory budget. Long texts lose
// nothing by it: at 128 tokens and more the matrix products are large
// enough to use the CPU fully one or two rows at a time.
const (
	maxBatchRows      = 64
	maxBatchTokens    = 2048
	maxBatchAttention = 1 << 17
)

// BatchRows is how many of the remaining rows, sorted longest first and the
// first padded to seq tokens, go into the next batch: at least one.
func BatchRows(seq, remaining int) int {
	return max(min(maxBatchRows, maxBatchTokens/seq, maxBatchAttention/(seq*seq), remaining), 1)
}
