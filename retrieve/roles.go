package retrieve

import (
	_ "embed"
	"slices"
	"strings"
)

// roleData is the role word list; roles.txt says where it comes from.
//
//go:embed roles.txt
var roleData string

// roleTable maps a role word (singular, words joined by "_") to the
// predicates a relation fact naming that role may carry: has_<role> for the
// role and its synonyms, the roles a group word stands for, and the other
// predicates listed with "@".
//
// roleCanon maps a role word to the first word of its line ("mom" →
// mother), the word role_compositions.txt is written in.
var roleTable, roleCanon = parseRoles(roleData)

// parseRoles reads the format roles.txt describes.
func parseRoles(data string) (table map[string][]string, canon map[string]string) {
	out := map[string][]string{}
	canon = map[string]string{}
	lines := map[string][]string{} // word → the words of its line
	groups := map[string][]string{}
	for line := range dataLines(data) {
		left, right, _ := strings.Cut(line, "=")
		ws := strings.Fields(left)
		for _, w := range ws {
			lines[w] = ws
			groups[w] = strings.Fields(right)
			canon[w] = ws[0]
		}
	}
	add := func(set []string, preds ...string) []string {
		for _, p := range preds {
			if !slices.Contains(set, p) {
				set = append(set, p)
			}
		}
		return set
	}
	for w, ws := range lines {
		var preds []string
		for _, syn := range ws {
			preds = add(preds, "has_"+syn)
		}
		for _, g := range groups[w] {
			if p, ok := strings.CutPrefix(g, "@"); ok {
				preds = add(preds, p)
				continue
			}
			for _, syn := range lines[g] {
				preds = add(preds, "has_"+syn)
			}
			if lines[g] == nil {
				preds = add(preds, "has_"+g)
			}
		}
		out[w] = preds
	}
	return out, canon
}

// rolePredicates returns the predicates a relation fact for the role words
// may carry, listed first for a known role; any other phrase gives its own
// has_<phrase>, so a role the list lacks ("our book club treasurer") still
// resolves when the extractor wrote it that way.
func rolePredicates(phrase []string) []string {
	role := strings.Join(phrase, "_")
	sing := strings.Join(append(append([]string{}, phrase[:len(phrase)-1]...), singular(phrase[len(phrase)-1])), "_")
	for _, r := range []string{role, sing} {
		if preds, ok := roleTable[r]; ok {
			return preds
		}
	}
	if sing != role {
		return []string{"has_" + sing, "has_" + role}
	}
	return []string{"has_" + role}
}

// singular strips a plural ending from a role noun.
func singular(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:len(w)-1]
	}
	return w
}

// Possessor kinds of a roleChain.
const (
	ownerUser    = "user"    // my, our
	ownerName    = "name"    // Caroline's
	ownerPronoun = "pronoun" // his, her, their: the person the query names
)

// roleChain is a possessive phrase of a query: "my sister's husband" is
// the user, then the roles [sister] and [husband]. Each role is the up to
// maxRoleWords content words after a possessive; which of their prefixes
// names a role is for the graph to say ("my sister live" → has_sister).
type roleChain struct {
	Owner     string // ownerUser, ownerName or ownerPronoun
	OwnerName string // the name before 's, for ownerName
	Roles     [][]string
}

// maxRoleWords bounds the words read as one role ("book club host").
const maxRoleWords = 3

// qtoken is a query word with whether it carried a possessive 's.
type qtoken struct {
	w    string
	poss bool
}

// queryTokens splits a query as words does, keeping the possessive marks.
// A contraction ("where's", "she's") is not a possessive.
func queryTokens(query string) []qtoken {
	var out []qtoken
	for _, f := range strings.FieldsFunc(strings.ToLower(query), func(r rune) bool { return !isWordRune(r) }) {
		f = strings.ReplaceAll(f, "’", "'")
		poss := false
		switch {
		case strings.HasSuffix(f, "'s"):
			f, poss = strings.TrimSuffix(f, "'s"), true
		case strings.HasSuffix(f, "s'"):
			f, poss = strings.TrimSuffix(f, "'"), true
		}
		f = strings.Trim(f, "'")
		if i := strings.IndexByte(f, '\''); i > 0 {
			f = f[:i]
		}
		if f == "" {
			continue
		}
		out = append(out, qtoken{w: f, poss: poss && !isStopword(f)})
	}
	return out
}

// roleChains finds the possessive phrases of a query: "my"/"our",
// "his"/"her"/"their", or a name with 's, followed by role words; a role
// word with 's continues the chain ("my sister's husband").
func roleChains(query string) []roleChain {
	ts := queryTokens(query)
	var out []roleChain
	for i := 0; i < len(ts); i++ {
		var c roleChain
		switch t := ts[i]; {
		case t.w == "my" || t.w == "our":
			c.Owner = ownerUser
		case t.w == "his" || t.w == "her" || t.w == "their":
			c.Owner = ownerPronoun
		case t.poss:
			c.Owner, c.OwnerName = ownerName, t.w
			// A two-word name ("Emma Rossi's").
			if i > 0 && !isStopword(ts[i-1].w) && !ts[i-1].poss {
				c.OwnerName = ts[i-1].w + " " + t.w
			}
		default:
			continue
		}
		j := i + 1
		for j < len(ts) {
			var role []string
			for j < len(ts) && len(role) < maxRoleWords && !isStopword(ts[j].w) {
				role = append(role, ts[j].w)
				j++
				if ts[j-1].poss {
					break
				}
			}
			if len(role) == 0 {
				break
			}
			c.Roles = append(c.Roles, role)
			if !ts[j-1].poss {
				break
			}
		}
		if len(c.Roles) > 0 {
			out = append(out, c)
			i = j - 1
		}
	}
	return out
}

// roleWords are the words of a query's role chains and their owners'
// names, which the relation score does not count as topic words: in
// "where does my sister live", only "live" says what is asked.
func roleWords(chains []roleChain) map[string]bool {
	out := map[string]bool{}
	for _, c := range chains {
		for _, w := range strings.Fields(c.OwnerName) {
			out[w] = true
		}
		for _, r := range c.Roles {
			for _, w := range r {
				out[w] = true
			}
		}
	}
	return out
}
