package lore

import "context"

type requestIDKey struct{}

// WithRequestID returns a context carrying the id of the request that the
// work belongs to: the HTTP request, or the request that enqueued a job.
// Logs written with the context carry it (cmd/lore's log handler).
func WithRequestID(ctx context.Context, id string) context.Context {
	if id == "" {
		return ctx
	}
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID returns the context's request id, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}
