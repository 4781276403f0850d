//go:build !unix

package main

import "io"

// lockFile cannot lock here: every process keeps the stored id, as before
// the lock existed.
func lockFile(string) (io.Closer, bool, error) { return nopCloser{}, true, nil }
