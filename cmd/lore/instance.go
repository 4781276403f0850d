package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/uuid"
)

// instanceID returns the name this process claims jobs under: the given
// one, or the one kept in dataDir/instance-id, created on first start. A
// restart thus finds the jobs it held when it died (ingest.Config.InstanceID).
//
// The kept id is held under a lock for the life of the process. A process
// hands back the jobs listed under its id that it does not hold, so two
// live processes sharing one id would hand back each other's running jobs:
// a second process started on the same data directory gets a fresh id for
// its run instead, and shared is true. The returned closer drops the lock.
func instanceID(given, dataDir string) (id string, shared bool, lock io.Closer, err error) {
	if given = strings.TrimSpace(given); given != "" {
		return given, false, nopCloser{}, nil
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return "", false, nil, fmt.Errorf("create data directory: %w", err)
	}
	lock, held, err := lockFile(filepath.Join(dataDir, "instance-id.lock"))
	if err != nil {
		return "", false, nil, fmt.Errorf("lock instance id: %w", err)
	}
	if !held {
		return uuid.NewString(), true, nopCloser{}, nil
	}
	path := filepath.Join(dataDir, "instance-id")
	b, err := os.ReadFile(path)
	if err == nil && strings.TrimSpace(string(b)) != "" {
		return strings.TrimSpace(string(b)), false, lock, nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		lock.Close()
		return "", false, nil, fmt.Errorf("read instance id: %w", err)
	}
	id = uuid.NewString()
	if err := os.WriteFile(path, []byte(id+"\n"), 0o600); err != nil {
		lock.Close()
		return "", false, nil, fmt.Errorf("write instance id: %w", err)
	}
	return id, false, lock, nil
}

type nopCloser struct{}

func (nopCloser) Close() error { return nil }
