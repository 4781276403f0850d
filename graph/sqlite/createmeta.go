package sqlite

import (
	"context"
	"database/sql"
)

// CreateMeta stores value under key unless the key is set already, and
// returns the value the key holds afterwards: of two processes creating
// the same setting, both get the one that was stored first (crypt's data
// keys).
func (s *Store) CreateMeta(ctx context.Context, key, value string) (string, error) {
	var out string
	err := s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`, key, value); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&out)
	})
	return out, wrap("create meta", err)
}
