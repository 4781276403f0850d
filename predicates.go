package lore

import (
	_ "embed"
	"strings"
)

// singleValuedTable is single_valued.txt, the default single-valued
// predicates. It is read, never written.
//
//go:embed single_valued.txt
var singleValuedTable string

// PredicateSet is a set of predicates in NormalizePredicate form. An entry
// written "word_*" matches every predicate that starts with "word_". The
// zero PredicateSet is empty.
type PredicateSet struct {
	exact    map[string]bool
	prefixes []string // each ends in "_"
}

// Has reports whether the set holds predicate, exactly or by a prefix
// entry.
func (s PredicateSet) Has(predicate string) bool {
	if s.exact[predicate] {
		return true
	}
	for _, p := range s.prefixes {
		if len(predicate) > len(p) && strings.HasPrefix(predicate, p) {
			return true
		}
	}
	return false
}

// Len returns the number of entries, prefix entries included.
func (s PredicateSet) Len() int { return len(s.exact) + len(s.prefixes) }

// add puts one entry in the set. A "*" may only end an entry, as "word_*"
// or "word*", which both mean every predicate starting with "word_". It
// returns EINVALID for an entry that normalizes to nothing.
func (s *PredicateSet) add(entry string) error {
	entry = strings.TrimSpace(entry)
	base, prefix := strings.CutSuffix(entry, "*")
	if strings.Contains(base, "*") {
		return Errorf(EINVALID, "predicate %q may have a \"*\" only at its end", entry)
	}
	p, err := NormalizePredicate(base)
	if err != nil {
		return err
	}
	if prefix {
		s.prefixes = append(s.prefixes, p+"_")
		return nil
	}
	if s.exact == nil {
		s.exact = map[string]bool{}
	}
	s.exact[p] = true
	return nil
}

// SingleValuedPredicates returns a new set of the predicates for which a
// subject holds at most one current object: those of single_valued.txt (a
// table written by hand; see its header) plus extra, which operators give
// with --single-valued-predicates. It returns EINVALID naming an extra
// entry that is not a predicate.
func SingleValuedPredicates(extra ...string) (PredicateSet, error) {
	var s PredicateSet
	for _, line := range strings.Split(singleValuedTable, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if err := s.add(line); err != nil {
			// The table is part of the build; TestSingleValuedTable
			// keeps every line valid.
			return PredicateSet{}, err
		}
	}
	for _, e := range extra {
		if strings.TrimSpace(e) == "" {
			continue
		}
		if err := s.add(e); err != nil {
			return PredicateSet{}, Errorf(EINVALID, "single-valued predicate %q: %s", e, ErrorMessage(err))
		}
	}
	return s, nil
}

// ParsePredicateList splits a comma-separated list of predicates, as
// --single-valued-predicates takes it, dropping empty entries.
func ParsePredicateList(list string) []string {
	var out []string
	for _, p := range strings.Split(list, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// SingleValued reports whether predicate is single-valued by the default
// table, single_valued.txt, so that a new object contradicts the old one
// (someone lives in one city at a time, but likes many things). Ingestion
// uses SingleValuedPredicates, which adds the operator's own.
func SingleValued(predicate string) bool {
	// A scan of the table, not a set built per call: callers may ask
	// once per candidate of a search.
	for line := range strings.Lines(singleValuedTable) {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		entry := strings.TrimSpace(line)
		if base, prefix := strings.CutSuffix(entry, "*"); prefix {
			base = strings.TrimSuffix(base, "_") + "_"
			if len(predicate) > len(base) && strings.HasPrefix(predicate, base) {
				return true
			}
		} else if entry != "" && entry == predicate {
			return true
		}
	}
	return false
}
