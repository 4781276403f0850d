package sqlite

// QueryWords returns the words of a text query that the embedded index
// searches for: lowercased, deduplicated, stopwords dropped unless nothing
// else is left, at most its term limit. A layer that transforms queries
// before they reach the index (crypt's blind index) selects the words with
// it first, so that the index ranks as it would have.
func QueryWords(text string) []string { return matchTerms(text) }
