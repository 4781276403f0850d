package storetest

import (
	"os"
	"testing"
)

// Unavailable ends a test that needs something outside the process (a
// server, the model): it skips with msg, which says how to provide it, or
// fails under CI=true, where everything a test needs must be there.
func Unavailable(tb testing.TB, msg string) {
	tb.Helper()
	if os.Getenv("CI") == "true" {
		tb.Fatal(msg + " (required under CI=true)")
	}
	tb.Skip(msg)
}

// ServerURL returns the address in the environment variable env, or ends
// the test through Unavailable with howto when it is unset.
func ServerURL(tb testing.TB, env, howto string) string {
	tb.Helper()
	url := os.Getenv(env)
	if url == "" {
		Unavailable(tb, env+" is not set; "+howto)
	}
	return url
}
