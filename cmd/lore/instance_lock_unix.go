//go:build unix

package main

import (
	"errors"
	"io"
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on path, creating it, without waiting.
// held is false when another open file (another process) holds it. The
// lock goes with the process, however it ends.
func lockFile(path string) (f io.Closer, held bool, err error) {
	file, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, err
	}
	if err := syscall.Flock(int(file.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		file.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, false, nil
		}
		return nil, false, err
	}
	return file, true, nil
}
