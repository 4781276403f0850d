package retrieve

import (
	"iter"
	"slices"
	"strings"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/index/terms"
)

// analysis is what the pipeline needs to know about a query.
type analysis struct {
	// Words are the query's words, lower case, possessive 's removed.
	Words []string
	// Terms are the content words: Words without stopwords.
	Terms []string
	// NGrams are normalised word n-grams (1 to 3 words) that may name an
	// entity, longest first; n-grams of stopwords alone are left out.
	NGrams []string
	// RoleText is the English gloss of a Chinese query for roleChains
	// (zh.go), or "".
	RoleText string
	// FirstPerson is true when the query is about the user ("my", "I").
	FirstPerson bool
	// Spans are the time expressions of the query, resolved.
	Spans []TimeSpan
	// Aggregate is true when the answer gathers several occasions: a
	// count, a total, an order, a comparison ("how many concerts…",
	// "which did I do first, A or B?").
	Aggregate bool
}

// maxNGram is the longest n-gram looked up as an entity name.
const maxNGram = 3

// maxNGrams bounds the n-grams of one query looked up as entity names.
const maxNGrams = 96

// analyse tokenizes a query and resolves its time expressions with parse
// (nil: none) against ref.
func analyse(query string, ref time.Time, parse func(string, time.Time) []TimeSpan) analysis {
	a := analysis{Words: words(query)}
	for _, w := range a.Words {
		if isFirstPerson(w) {
			a.FirstPerson = true
		}
		if !isStopword(w) {
			a.Terms = append(a.Terms, w)
		}
	}
	a.Aggregate = aggregates(a.Words)
	a.NGrams = ngrams(a.Words, maxNGram)
	// Chinese names stand inside runs without spaces: 「小美住在哪裡」.
	a.NGrams = append(a.NGrams, terms.CJKGrams(query, 2, 4)...)
	a.FirstPerson = a.FirstPerson || strings.ContainsRune(query, '我')
	if g := zhGloss(query); len(g) > 0 {
		a.Words = append(a.Words, g...) // zh.go
		a.RoleText = strings.Join(g, " ")
	}
	// A pasted paragraph would otherwise send hundreds of names to the
	// entity lookup; the longest n-grams come first and are kept.
	if len(a.NGrams) > maxNGrams {
		a.NGrams = a.NGrams[:maxNGrams]
	}
	if parse != nil {
		a.Spans = parse(query, ref)
	}
	return a
}

// aggregates reports whether a query's words ask to gather several
// occasions: "how many", "how much", a total, an average, an order, a
// difference or a choice between two ("first, A or B").
func aggregates(ws []string) bool {
	hasOr := false
	for _, w := range ws {
		hasOr = hasOr || w == "or"
	}
	for i, w := range ws {
		switch w {
		case "total", "totally", "altogether", "combined", "average", "sum", "order", "between", "compared",
			"compare", "difference", "times":
			return true
		case "how":
			if i+1 < len(ws) && (ws[i+1] == "many" || ws[i+1] == "much") {
				return true
			}
		case "first", "last", "earlier", "later", "before", "after":
			if hasOr {
				return true
			}
		}
	}
	return false
}

// words splits text into lower-case words of letters and digits, keeping
// inner apostrophes and hyphens out and dropping a possessive 's, so
// "Caroline's" gives "caroline".
func words(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !isWordRune(r) }) {
		f = strings.ReplaceAll(f, "’", "'")
		f = strings.TrimSuffix(f, "'s")
		f = strings.Trim(f, "'")
		if f == "" {
			continue
		}
		// Contractions ("don't", "i'm") keep their first part, which is the
		// stopword or pronoun that matters here.
		if i := strings.IndexByte(f, '\''); i > 0 {
			f = f[:i]
		}
		out = append(out, f)
	}
	return out
}

// ngrams returns the distinct n-grams of ws up to n words, longest first,
// normalised as entity names are; an n-gram that starts or ends with a
// stopword is skipped so "to boston" does not shadow "boston".
func ngrams(ws []string, n int) []string {
	seen := map[string]bool{}
	var out []string
	for size := n; size >= 1; size-- {
		for i := 0; i+size <= len(ws); i++ {
			g := ws[i : i+size]
			if isStopword(g[0]) || isStopword(g[len(g)-1]) {
				continue
			}
			s := lore.NormalizeName(strings.Join(g, " "))
			if s == "" || seen[s] {
				continue
			}
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// sentenceEnds are the runes that end a sentence or a list item.
const sentenceEnds = ".!?;\n"

// stem reduces a word to a crude stem for comparing texts with each other
// (near-duplicate detection): plural and -ing/-ed endings go. The index
// stems on its own; stems are never sent to it.
func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && strings.HasSuffix(w, "sses"):
		return w[:len(w)-2]
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		return w[:len(w)-3]
	case len(w) > 4 && strings.HasSuffix(w, "ed"):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// stemSet is the set of stems of a text's content words.
func stemSet(text string) map[string]bool {
	set := map[string]bool{}
	for _, w := range words(text) {
		if !isStopword(w) {
			set[stem(w)] = true
		}
	}
	return set
}

// isFirstPerson reports whether a word marks a query about the user.
func isFirstPerson(w string) bool {
	switch w {
	case "i", "me", "my", "mine", "myself":
		return true
	}
	return false
}

// isStopword reports whether a word is a function word or question word
// that carries no topic.
func isStopword(w string) bool {
	switch w {
	case "a", "an", "the", "and", "or", "but", "if", "then", "else", "of", "at", "by", "for", "with", "about",
		"against", "between", "into", "through", "during", "before", "after", "above", "below", "to", "from", "up",
		"down", "in", "out", "on", "off", "over", "under", "again", "further", "once", "here", "there", "all",
		"any", "both", "each", "few", "more", "most", "other", "some", "such", "no", "nor", "not", "only", "own",
		"same", "so", "than", "too", "very", "can", "will", "just", "should", "now", "is", "am", "are", "was",
		"were", "be", "been", "being", "have", "has", "had", "having", "do", "does", "did", "doing", "would",
		"could", "might", "must", "shall", "may", "i", "me", "my", "mine", "myself", "we", "us", "our", "ours",
		"ourselves", "you", "your", "yours", "yourself", "yourselves", "he", "him", "his", "himself", "she", "her",
		"hers", "herself", "it", "its", "itself", "they", "them", "their", "theirs", "themselves", "this", "that",
		"these", "those", "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "there's",
		"what's", "let's", "ever", "also", "yet", "still", "get", "got", "go", "going", "gone", "went", "tell",
		"told", "say", "said", "know", "remember", "recall", "mention", "mentioned", "s", "t", "d", "ll", "m", "o",
		"re", "ve", "y":
		return true
	}
	return false
}

// dataLines yields the lines of an embedded data file, trimmed, without
// blank lines and "#" comments.
func dataLines(data string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for line := range strings.Lines(data) {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if !yield(line) {
				return
			}
		}
	}
}

// phrasesByFirstWord reads a phrase list (one a line, # comments) into word
// lists indexed by their first word.
func phrasesByFirstWord(data string) map[string][][]string {
	out := map[string][][]string{}
	for line := range dataLines(data) {
		ws := strings.Fields(strings.ToLower(line))
		out[ws[0]] = append(out[ws[0]], ws)
	}
	return out
}

// holdsPhrase reports whether ws contain one of phrases as whole words.
func holdsPhrase(ws []string, phrases map[string][][]string) bool {
	for i, w := range ws {
		for _, p := range phrases[w] {
			if i+len(p) <= len(ws) && slices.Equal(ws[i:i+len(p)], p) {
				return true
			}
		}
	}
	return false
}
