package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/uuid"
)

// instanceID returns the name this process claims jobs under: the given
// one, or the one kept in dataDir/instance-id, created on first start. A
// restart thus finds the jobs it held when it died (ingest.Config.InstanceID).
func instanceID(given, dataDir string) (string, error) {
	if given = strings.TrimSpace(given); given != "" {
		return given, nil
	}
	path := filepath.Join(dataDir, "instance-id")
	b, err := os.ReadFile(path)
	if err == nil && strings.TrimSpace(string(b)) != "" {
		return strings.TrimSpace(string(b)), nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("read instance id: %w", err)
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return "", fmt.Errorf("create data directory: %w", err)
	}
	id := uuid.NewString()
	if err := os.WriteFile(path, []byte(id+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("write instance id: %w", err)
	}
	return id, nil
}
