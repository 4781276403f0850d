//go:build !unix

package crypt_test

import "time"

// processCPU is unavailable here; benchmarks then report no CPU time.
func processCPU() time.Duration { return 0 }
