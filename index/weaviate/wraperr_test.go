package weaviate

import (
	"io"
	"net/url"
	"testing"

	"github.com/weaviate/weaviate-go-client/v4/weaviate/fault"

	"github.com/lore-memory/lore"
)

// TestWrapErrDroppedConnection: a connection the server dropped mid-request
// (EOF from the transport), as the GraphQL client reports it, twice wrapped,
// is an outage, so the job queue waits for Weaviate instead of failing.
func TestWrapErrDroppedConnection(t *testing.T) {
	transport := &url.Error{Op: "Post", URL: "http://127.0.0.1:1/v1/graphql", Err: io.EOF}
	for name, err := range map[string]error{
		"rest":    &fault.WeaviateClientError{StatusCode: -1, DerivedFromError: transport},
		"graphql": &fault.WeaviateClientError{StatusCode: -1, DerivedFromError: &fault.WeaviateClientError{StatusCode: -1, DerivedFromError: transport}},
	} {
		if got := wrapErr(err); lore.ErrorCode(got) != lore.EUNAVAILABLE {
			t.Errorf("%s: wrapErr=%v (code %s), want EUNAVAILABLE", name, got, lore.ErrorCode(got))
		}
	}
}
