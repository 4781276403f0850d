//go:build !unix

package sqlite

import "time"

// cpuNow is not measured off unix: 0.
func cpuNow() time.Duration { return 0 }
