package neo4j

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/lore-memory/lore"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// A server cut mid-write surfaces as the driver's retries running out on a
// connectivity error; callers must see EUNAVAILABLE (retry later), not an
// internal error (TestBackendOutages saw this on a real server).
func TestWrapReportsOutagesAsUnavailable(t *testing.T) {
	conn := &neo4j.ConnectivityError{Inner: io.EOF}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"connectivity", conn, true},
		{"wrapped connectivity", fmt.Errorf("session: %w", conn), true},
		{"retries out on connectivity", &neo4j.TransactionExecutionLimit{Cause: "timeout", Errors: []error{conn}}, true},
		{"retries out on a transient error", &neo4j.TransactionExecutionLimit{Cause: "timeout", Errors: []error{&neo4j.Neo4jError{Code: "Neo.TransientError.Transaction.DeadlockDetected"}}}, true},
		{"retries out on a client error", &neo4j.TransactionExecutionLimit{Cause: "timeout", Errors: []error{&neo4j.Neo4jError{Code: "Neo.ClientError.Statement.SyntaxError"}}}, false},
		{"another error", errors.New("boom"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lore.ErrorCode(wrap("add episodes", tt.err)) == lore.EUNAVAILABLE; got != tt.want {
				t.Fatalf("wrap(%v) unavailable = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}
