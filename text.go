package lore

import (
	"strings"
	"time"
	"unicode"
)

// MaxPredicateLength bounds a normalized predicate.
const MaxPredicateLength = 64

// NormalizeName folds a name for matching: lower case, inner white space
// collapsed, surrounding punctuation and a leading "the " removed.
func NormalizeName(name string) string {
	s := strings.ToLower(strings.Join(strings.Fields(name), " "))
	s = strings.TrimFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) || unicode.IsSpace(r) })
	s = strings.TrimPrefix(s, "the ")
	return s
}

// NormalizePredicate turns a predicate into snake_case of [a-z0-9_], for
// example "Works At" → "works_at". It returns EINVALID when nothing is left
// or the result is longer than MaxPredicateLength. Predicates are data, never
// labels or relationship types, but are kept to this alphabet all the same.
func NormalizePredicate(p string) (string, error) {
	var b strings.Builder
	underscore := false
	for _, r := range strings.ToLower(strings.TrimSpace(p)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			underscore = false
		case !underscore && b.Len() > 0:
			b.WriteByte('_')
			underscore = true
		}
	}
	out := strings.TrimRight(b.String(), "_")
	if out == "" {
		return "", Errorf(EINVALID, "predicate %q has no letters or digits", p)
	}
	if len(out) > MaxPredicateLength {
		return "", Errorf(EINVALID, "predicate %q is longer than %d characters", p, MaxPredicateLength)
	}
	return out, nil
}

// ParseTime reads an RFC 3339 timestamp, the same without a zone (UTC) or a
// plain date (midnight UTC), as the API and the CLI accept them. An empty
// value is nil; anything else is EINVALID naming field.
func ParseTime(field, value string) (*time.Time, error) {
	if value == "" {
		return nil, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, value); err == nil {
			return &t, nil
		}
	}
	return nil, Errorf(EINVALID, "%s must be an RFC 3339 time such as 2024-05-01T15:04:05Z, got %q", field, value)
}
