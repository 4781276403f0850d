package neo4j

import (
	"context"
)

// CreateMeta stores value under key unless the key is set already, and
// returns the value the key holds afterwards.
func (s *Store) CreateMeta(ctx context.Context, key, value string) (string, error) {
	return write(ctx, s, "create meta", func(r txRunner) (string, error) {
		recs, err := r.run("CreateMeta", shape{}, map[string]any{"key": key, "value": value})
		if err != nil || len(recs) == 0 {
			return "", err
		}
		v, _ := recs[0].Get("value")
		out, _ := v.(string)
		return out, nil
	})
}
