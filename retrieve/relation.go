package retrieve

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/lore-memory/lore"
)

// SignalRelation is the score of a fact about an entity the query names by
// its role ("my sister") or name, and of the turns that said it.
const SignalRelation = "relation"

// maxRoleEntities bounds the entities one role step may lead to ("my
// friends" may name many).
const maxRoleEntities = 4

// resolved is what the relation stage found: the entities a query's role
// chains and names lead to, the relation facts that led there (hop by hop),
// and the words of the query that named them.
type resolved struct {
	entities []*lore.Entity
	edges    []*lore.Fact // the relation facts walked, e.g. (user, has_sister, Emma)
	used     map[string]bool
	// complete is false when a role chain stopped before its last role.
	complete bool
	// self is the user's entity when a first-person query asks about the
	// user directly ("where do I work?"); only its facts that have a topic
	// word of the query count, as the user touches nearly every fact.
	self *lore.Entity
}

// relate resolves the query's role chains through the graph: the owner (the
// user for "my", a named person for "Caroline's", the one person the query
// names for "her"), then for each role the objects of the owner's current
// relation facts with a predicate for that role. Of the up to maxRoleWords
// words read as a role, the longest prefix that leads somewhere is taken,
// so "my sister live" resolves "sister". linked are the entities the
// query's names linked to.
func (p *Pipeline) relate(ctx context.Context, req Request, a analysis, linked []*lore.Entity, at asOf) (resolved, error) {
	out := resolved{used: map[string]bool{}, complete: true}
	chains := roleChains(req.Query + " " + a.RoleText)
	wantSelf := p.Config.RelationSelf && a.FirstPerson
	var named, circle []*lore.Entity
	if p.Config.RelationNamed {
		named = namedEntities(linked, p.Config.HubMentions)
	} else if p.Config.RelationCircle {
		circle = namedEntities(linked, p.Config.HubMentions)
	}
	if len(chains) == 0 && !wantSelf && len(named) == 0 && len(circle) == 0 {
		return out, nil
	}
	ns := req.Scope.Namespace()
	var user *lore.Entity
	var names []string
	needUser := wantSelf || len(circle) > 0
	for _, c := range chains {
		switch c.Owner {
		case ownerName:
			names = append(names, lore.NormalizeName(c.OwnerName))
			if i := strings.IndexByte(c.OwnerName, ' '); i > 0 {
				names = append(names, lore.NormalizeName(c.OwnerName[i+1:]))
			}
		default:
			needUser = true
		}
	}
	if needUser {
		names = append(names, lore.NormalizeName(lore.UserEntityType))
	}
	found, err := p.Graph.FindEntities(ctx, lore.EntityFilter{Scope: ns, Names: names, Limit: 4 * len(names)})
	if err != nil {
		return out, fmt.Errorf("retrieve: relation owners: %w", err)
	}
	for _, e := range found {
		if e.Type == lore.UserEntityType && user == nil {
			user = e
		}
	}
	if wantSelf {
		out.self = user
	}
	// The people the query names who are the user's own (the object of a
	// relation fact of the user's: "my roommate Jonas") resolve as roles
	// do; other names do not (RelationCircle).
	if user != nil {
		for _, e := range circle {
			own, err := p.inCircle(ctx, req.Scope, user, e, at)
			if err != nil {
				return out, err
			}
			if own {
				named = append(named, e)
			}
		}
	}
	// "her sister" in a query naming one person is that person's sister.
	var person *lore.Entity
	for _, e := range linked {
		if e.Type == "person" {
			if person != nil {
				person = nil
				break
			}
			person = e
		}
	}
	seen := map[string]bool{}
	for _, c := range chains {
		var owners []*lore.Entity
		switch c.Owner {
		case ownerUser:
			if user != nil {
				owners = append(owners, user)
			}
		case ownerPronoun:
			if person != nil {
				owners = append(owners, person)
			} else if user != nil {
				owners = append(owners, user)
			}
		case ownerName:
			for _, e := range found {
				if e.Type != lore.UserEntityType && namesEntity(e, c.OwnerName) {
					owners = append(owners, e)
					break
				}
			}
			if len(owners) > 0 {
				for _, w := range strings.Fields(c.OwnerName) {
					out.used[w] = true
				}
			}
		}
		stepped := 0
		roles := c.Roles
		if c.Owner == ownerUser && len(owners) > 0 && len(roles) >= 2 {
			// "my daughter's husband" is first the son-in-law the user
			// may have named as such.
			if comp := composedRole(roles[0], roles[1]); comp != nil {
				next, edges, n, err := p.step(ctx, req.Scope, owners, comp, at)
				if err != nil {
					return out, err
				}
				if len(next) > 0 && n == len(comp) {
					for _, w := range append(append([]string{}, roles[0]...), roles[1]...) {
						out.used[w] = true
					}
					out.edges = append(out.edges, edges...)
					owners, stepped, roles = next, 2, roles[2:]
				}
			}
		}
		for _, role := range roles {
			if len(owners) == 0 {
				break
			}
			next, edges, n, err := p.step(ctx, req.Scope, owners, role, at)
			if err != nil {
				return out, err
			}
			if len(next) == 0 && stepped > 0 {
				// "my daughter's teacher" with no has_teacher fact: the
				// daughter is still known, and "teacher" stays a topic
				// word for her facts and turns.
				break
			}
			for _, w := range role[:n] {
				out.used[w] = true
			}
			out.edges = append(out.edges, edges...)
			owners = next
			stepped++
		}
		if stepped == 0 && len(c.Roles) > 0 && knownRole(c.Roles[0]) {
			// "What does my mom do for work?" with no mother known asks
			// about her, not about the user.
			out.complete = false
		}
		if len(owners) == 0 || stepped == 0 {
			continue
		}
		// A chain ends short when a role word is left ("my daughter's
		// teacher" with no teacher known); a last word that is no role
		// ("my sister's husband's job") is what is asked.
		if stepped < len(c.Roles) && knownRole(c.Roles[stepped]) {
			out.complete = false
		}
		for _, e := range owners {
			if !seen[e.ID] {
				seen[e.ID] = true
				out.entities = append(out.entities, e)
			}
		}
	}
	// An entity the query names ("what does Jonas play?") is resolved as
	// a role would resolve it; its name is no topic word.
	for _, e := range named {
		if !seen[e.ID] {
			seen[e.ID] = true
			out.entities = append(out.entities, e)
		}
		for _, w := range words(e.Name) {
			out.used[w] = true
		}
	}
	return out, nil
}

// inCircle reports whether e is one of the user's people or pets: the
// object of a current relation fact (has_<role>) of the user's, or of one
// of theirs ("Kenji is Naomi's brother", Naomi being the user's wife).
func (p *Pipeline) inCircle(ctx context.Context, scope lore.Scope, user, e *lore.Entity, at asOf) (bool, error) {
	relation := func(f *lore.Fact) bool { return strings.HasPrefix(f.Predicate, "has_") && at.valid(f) }
	fs, err := p.Graph.FindFacts(ctx, lore.FactFilter{Scope: scope, ObjectID: e.ID, Limit: 8})
	if err != nil {
		return false, fmt.Errorf("retrieve: relation circle: %w", err)
	}
	for _, f := range fs {
		if !relation(f) {
			continue
		}
		if f.SubjectID == user.ID {
			return true, nil
		}
		via, err := p.Graph.FindFacts(ctx, lore.FactFilter{Scope: scope, SubjectID: user.ID, ObjectID: f.SubjectID, Limit: 4})
		if err != nil {
			return false, fmt.Errorf("retrieve: relation circle: %w", err)
		}
		if slices.ContainsFunc(via, relation) {
			return true, nil
		}
	}
	return false, nil
}

// namedEntities are the linked entities the relation stage resolves by
// name: people and pets, not the user, and no hub (more than hubMentions mentions, such as
// a conversation's speakers), whose every fact the query would lift.
func namedEntities(linked []*lore.Entity, hubMentions int) []*lore.Entity {
	var out []*lore.Entity
	for _, e := range linked {
		if (e.Type == "person" || e.Type == "pet") && (hubMentions <= 0 || e.Mentions <= hubMentions) {
			out = append(out, e)
		}
	}
	return out
}

// namesEntity reports whether name (normalised) is the entity's name, an
// alias or its name's first word.
func namesEntity(e *lore.Entity, name string) bool {
	n := lore.NormalizeName(name)
	if e.NormalizedName == n || slices.Contains(e.Aliases, n) {
		return true
	}
	first, _, _ := strings.Cut(e.NormalizedName, " ")
	return first == n
}

// step follows one role from owners: the longest prefix of role whose
// predicates lead to entities through facts valid at asOf. It returns the
// entities reached, the facts that reached them and the prefix length used
// (0: none led anywhere).
func (p *Pipeline) step(ctx context.Context, scope lore.Scope, owners []*lore.Entity, role []string, at asOf) ([]*lore.Entity, []*lore.Fact, int, error) {
	for n := len(role); n >= 1; n-- {
		var edges []*lore.Fact
		var ids []string
		for _, o := range owners {
			for _, pred := range rolePredicates(role[:n]) {
				fs, err := p.Graph.FindFacts(ctx, lore.FactFilter{Scope: scope, SubjectID: o.ID, Predicate: pred, IncludeInvalidated: true, Limit: 2 * maxRoleEntities})
				if err != nil {
					return nil, nil, 0, fmt.Errorf("retrieve: relation %s: %w", pred, err)
				}
				for _, f := range fs {
					if f.ObjectID == "" || !at.valid(f) || slices.Contains(ids, f.ObjectID) {
						continue
					}
					edges = append(edges, f)
					ids = append(ids, f.ObjectID)
				}
			}
		}
		if len(ids) == 0 {
			continue
		}
		ids = ids[:min(len(ids), maxRoleEntities)]
		ents, err := p.Graph.FindEntities(ctx, lore.EntityFilter{Scope: scope.Namespace(), IDs: ids})
		if err != nil {
			return nil, nil, 0, fmt.Errorf("retrieve: relation entities: %w", err)
		}
		return ents, edges, n, nil
	}
	return nil, nil, 0, nil
}

// relationFacts loads the current facts of the resolved entities, as
// subject or object, at most limit of each.
func (p *Pipeline) relationFacts(ctx context.Context, scope lore.Scope, ents []*lore.Entity, limit int) ([]*lore.Fact, error) {
	var out []*lore.Fact
	seen := map[string]bool{}
	for _, e := range ents {
		fs, err := p.Graph.FindFacts(ctx, lore.FactFilter{Scope: scope, EntityID: e.ID, IncludeInvalidated: true, Limit: limit})
		if err != nil {
			return nil, fmt.Errorf("retrieve: facts of %s: %w", e.Name, err)
		}
		for _, f := range fs {
			if !seen[f.ID] {
				seen[f.ID] = true
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// relationScores scores the facts about resolved entities on an absolute
// 0..1 scale: relationBase for being about an entity the query names, the
// rest for how many of the query's topic words (its content words less the
// role words and names) the fact's predicate, object or text has — with
// the question word's hint ("where" matches lives_in) or the predicates the
// query's topic phrases ask for (typed: "job title" asks for works_as). The
// relation facts walked to reach them score as facts about them. A query
// with no topic words ("who is my sister?") is answered by the relation
// fact, which scores 1. It also returns the facts whose predicate is one
// the query's topic phrases ask for.
func relationScores(facts, edges []*lore.Fact, topic, hints, typed []string) (map[string]float64, map[string]bool) {
	out := map[string]float64{}
	answers := map[string]bool{}
	isEdge := map[string]bool{}
	for _, f := range edges {
		isEdge[f.ID] = true
	}
	want := map[string]bool{}
	for _, w := range topic {
		want[stem(w)] = true
	}
	for _, f := range append(slices.Clone(edges), facts...) {
		if _, done := out[f.ID]; done {
			continue
		}
		var match float64
		switch {
		case len(want) == 0 && len(hints) == 0 && len(typed) == 0:
			if isEdge[f.ID] {
				match = 1
			}
		default:
			have := stemSet(f.Text + " " + strings.ReplaceAll(f.Predicate, "_", " ") + " " + f.Object)
			hit := 0
			for w := range want {
				if have[w] {
					hit++
				}
			}
			total := len(want)
			if len(hints) > 0 || len(typed) > 0 {
				total++
				switch {
				case predicateIn(f.Predicate, typed):
					hit++
					answers[f.ID] = true
				case slices.ContainsFunc(hints, func(h string) bool { return strings.Contains(f.Predicate, h) }):
					hit++
					// Without a topic word the question word is all it
					// asks: "What does Giorgi's son do?" is answered by
					// works_as as much as by works_at.
					if len(typed) == 0 {
						answers[f.ID] = true
					}
				}
			}
			match = float64(hit) / float64(total)
		}
		out[f.ID] = relationBase + (1-relationBase)*match
	}
	return out, answers
}

// SignalPath names the factor a relation fact's score was multiplied by
// because the query asks an attribute of the entity it leads to, not who
// that entity is, in Result.ScoreDetails.
const SignalPath = "path"

// applyPathFactor multiplies by factor the relation facts walked to the
// entities whose attribute the query asks (candidateSet.path).
func applyPathFactor(c *candidateSet, f fused, factor float64) {
	for _, id := range c.path {
		if _, ok := f.Scores[id]; ok {
			f.Scores[id] *= factor
			detail(f.Details, id)[SignalPath] = factor
		}
	}
}

// relationBase is the relation score of a fact about a resolved entity
// that has none of the query's topic words: enough to make it a candidate,
// little beside one that answers.
const relationBase = 0.3

// questionHints are predicate fragments a question word asks for: "where"
// asks for a place (lives_in, located_in, moved_to, based_in), "when" for a
// date.
func questionHints(ws []string) []string {
	var out []string
	aux := false // a do/does/did already seen: a later "do" is the main verb
	for _, w := range ws {
		switch w {
		case "where":
			out = append(out, "live", "located", "moved", "based", "city", "from")
		case "when":
			out = append(out, "date", "birthday", "born", "_on", "since")
		case "do":
			// "What does my sister's husband do?" asks for a job; in "What
			// instrument do I play?" "do" is only the auxiliary, and in
			// "What sport do I do?" "what" is the sport, not the work.
			if aux && asksWhatDone(ws) {
				out = append(out, "works", "job", "occupation", "profession")
			}
		}
		if w == "do" || w == "does" || w == "did" {
			aux = true
		}
	}
	return out
}

// asksWhatDone reports whether "what" is itself the object of the
// question's do ("what do I do", "what does Sam do"), not a determiner of
// one ("what sport do I do").
func asksWhatDone(ws []string) bool {
	for i := 0; i+1 < len(ws); i++ {
		if ws[i] == "what" && (ws[i+1] == "do" || ws[i+1] == "does" || ws[i+1] == "did") {
			return true
		}
	}
	return false
}

// relationSignal builds the relation signal: the scores of the facts about
// the resolved entities, and for each of their source turns half the best
// score of its facts, as the graph walk gives them. Facts not valid at
// asOf are left out.
func relationSignal(r resolved, facts, self []*lore.Fact, a analysis, kinds []lore.DocKind, weight float64, at asOf) walkResult {
	out := walkResult{
		signal: signal{Name: SignalRelation, Weight: weight, Scores: map[string]float64{}, Absolute: true},
		kind:   map[string]lore.DocKind{},
	}
	typed, typedWords := topicPredicates(a.Words)
	var topic []string
	for _, w := range a.Terms {
		if !r.used[w] && !typedWords[w] && !hasHan(w) {
			topic = append(topic, w)
		}
	}
	var valid []*lore.Fact
	for _, f := range facts {
		if at.valid(f) {
			valid = append(valid, f)
		}
	}
	hints := questionHints(a.Words)
	scores, answers := relationScores(valid, r.edges, topic, hints, typed)
	if len(topic) > 0 || len(hints) > 0 || len(typed) > 0 {
		for _, f := range r.edges {
			out.path = append(out.path, f.ID)
		}
	}
	if len(topic) > 0 || len(typed) > 0 {
		var mine []*lore.Fact
		for _, f := range self {
			if _, ok := scores[f.ID]; !ok && at.valid(f) {
				mine = append(mine, f)
			}
		}
		mineScores, mineAnswers := relationScores(mine, nil, topic, hints, typed)
		for id, v := range mineScores {
			if v > relationBase {
				scores[id] = v * selfShare
				valid = append(valid, factByID(mine, id))
			}
			// "Which city does my sister live in?" asks about the
			// sister: the user's own city is no answer.
			if mineAnswers[id] && len(r.entities) == 0 {
				answers[id] = true
			}
		}
	}
	// A chain that stopped short ("my daughter's teacher" with no teacher
	// known) resolved someone else than the query asks about: their facts
	// are no answer.
	if !r.complete || !asksValue(a.Words) {
		answers = nil
	}
	out.answers = answers
	wantFacts := slices.Contains(kinds, lore.KindFact)
	wantEpisodes := slices.Contains(kinds, lore.KindEpisode)
	s := out.signal.Scores
	for _, f := range append(slices.Clone(r.edges), valid...) {
		if _, dup := out.kind[f.ID]; dup || scores[f.ID] == 0 {
			continue
		}
		if wantFacts {
			out.facts = append(out.facts, f)
			out.kind[f.ID] = lore.KindFact
			s[f.ID] = scores[f.ID]
		}
		if wantEpisodes {
			for _, epID := range f.SourceEpisodeIDs {
				if v := scores[f.ID] / 2; v > s[epID] {
					s[epID] = v
					out.kind[epID] = lore.KindEpisode
				}
			}
		}
	}
	return out
}

// selfShare scales the relation score of the user's own facts for a
// first-person query: the user is no entity the query resolved, and every
// first-person query would otherwise lift the user's facts over the turns
// that answer it. At 1 and 0.5, LongMemEval-S (--limit 10) turn any@5 fell
// 1.000 → 0.857; at 0.25 it holds, and the relational set's pass@1 is
// 0.742 (tune) and 0.682 (validate), against 0.726 and 0.682 at 1.
const selfShare = 0.25

func factByID(fs []*lore.Fact, id string) *lore.Fact {
	for _, f := range fs {
		if f.ID == id {
			return f
		}
	}
	return nil
}

// mentions is what the relation stage needs after hydration to score the
// turns that name a resolved entity: the entities' names (lower-case word
// lists), the query's topic words and the relation signal's scores.
type mentions struct {
	names  [][]string
	topic  []string
	scores map[string]float64
}

// newMentions collects the names of the resolved entities, and the topic
// words of the query, for scoreMentions.
func newMentions(r resolved, a analysis, scores map[string]float64) *mentions {
	m := &mentions{scores: scores}
	for _, e := range r.entities {
		if e.Type == lore.UserEntityType {
			continue
		}
		for _, n := range append([]string{e.Name}, e.Aliases...) {
			if ws := words(n); len(ws) > 0 {
				m.names = append(m.names, ws)
			}
		}
	}
	for _, w := range a.Terms {
		if !r.used[w] {
			m.topic = append(m.topic, w)
		}
	}
	if len(m.names) == 0 {
		return nil
	}
	return m
}

// scoreMentions gives each candidate turn that names a resolved entity a
// relation score: mentionBase, and the rest for how well it meets the
// query's topic — the share of topic words it has, or its dense score
// (min-max over the query's candidates) when that is higher, as "started at
// St. Luke's" answers "work" with no word in common. So "my wife Ana just
// started at St. Luke's" answers "where does my wife work?" before any
// works_at fact exists. A higher score the turn already had as a fact's
// source is kept.
func scoreMentions(m *mentions, episodes map[string]*lore.Episode, kind map[string]lore.DocKind, dense map[string]float64) {
	if m == nil {
		return
	}
	want := map[string]bool{}
	for _, w := range m.topic {
		want[stem(w)] = true
	}
	near := normalise(dense, false)
	names := func(ep *lore.Episode) bool {
		ws := words(ep.Content)
		return slices.ContainsFunc(m.names, func(n []string) bool { return containsRun(ws, n) })
	}
	for id, ep := range episodes {
		if kind[id] != lore.KindEpisode {
			continue
		}
		if !names(ep) {
			continue
		}
		match := near[id]
		if len(want) > 0 {
			have := stemSet(ep.Content)
			hit := 0
			for w := range want {
				if have[w] {
					hit++
				}
			}
			match = max(match, float64(hit)/float64(len(want)))
		}
		if v := mentionBase + (1-mentionBase)*match; v > m.scores[id] {
			m.scores[id] = v
		}
	}
}

// mentionBase is the relation score of a turn that names a resolved entity
// but meets nothing else of the query.
const mentionBase = 0.3

// containsRun reports whether ws has run as consecutive words.
func containsRun(ws, run []string) bool {
	for i := 0; i+len(run) <= len(ws); i++ {
		if slices.Equal(ws[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

// knownRole reports whether a role phrase starts with a role of roles.txt
// ("mom" in "mom do work"), as opposed to a possessed thing ("job title").
func knownRole(role []string) bool {
	for n := len(role); n >= 1; n-- {
		if _, ok := roleTable[strings.Join(role[:n], "_")]; ok {
			return true
		}
		if _, ok := roleTable[singular(strings.Join(role[:n], "_"))]; ok {
			return true
		}
	}
	return false
}
