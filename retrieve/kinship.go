package retrieve

// kinTerms returns the other words people use for the family members a
// query word names: a group ("parents", "grandparents") gives its members,
// a member ("mom") its synonyms. People talk about "my grandma" and later
// ask about "my grandparents"; BM25 cannot join the two and the embedding
// joins them weakly. The words join the expansion search, which weighs less
// than the query's own words. A word that names no relative gives nil.
func kinTerms(word string) []string {
	switch word {
	case "parent", "parents":
		return []string{"mom", "dad", "mother", "father", "mum"}
	case "mom", "moms", "mother", "mothers", "mum", "mums", "mommy", "mama":
		return []string{"mom", "mother", "mum"}
	case "dad", "dads", "father", "fathers", "daddy", "papa":
		return []string{"dad", "father"}
	case "grandparent", "grandparents":
		return []string{"grandma", "grandpa", "grandmother", "grandfather", "granny"}
	case "grandma", "grandmas", "grandmother", "grandmothers", "granny", "nana":
		return []string{"grandma", "grandmother", "granny", "nana"}
	case "grandpa", "grandpas", "grandfather", "grandfathers", "granddad", "grandad":
		return []string{"grandpa", "grandfather", "granddad"}
	case "sibling", "siblings":
		return []string{"brother", "sister"}
	case "child", "children", "kid", "kids":
		return []string{"son", "daughter", "kid", "child"}
	case "grandchild", "grandchildren", "grandkid", "grandkids":
		return []string{"grandson", "granddaughter"}
	case "spouse":
		return []string{"husband", "wife"}
	case "husband", "wife", "partner":
		return []string{"spouse"}
	}
	return nil
}
