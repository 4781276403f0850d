//go:build !unix

package api

import "time"

// processCPU is not measured off unix: the CPU metrics read 0.
func processCPU() time.Duration { return 0 }
