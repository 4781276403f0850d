//go:build !unix

package cputime

import "time"

// Process is unavailable here: benchmarks then report no CPU time.
func Process() time.Duration { return 0 }
