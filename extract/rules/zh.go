package rules

import (
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/temporal"
)

// Chinese messages (Traditional and Simplified) go through the rules of this
// file instead of the English ones: Chinese has no spaces, no capitals and
// no inflection, so names, clauses and verbs are found by the words around
// them. The facts have the same predicates as English ones (lives_in,
// works_at, works_as, likes, allergic_to, has_<role>, …), so single-valued
// predicates and endings close old facts the same way, and their texts keep
// the speaker's words and script: 「我妹妹小美上個月搬到東京了」 gives (user
// has_sister 小美) "小美是user的妹妹" and (小美 lives_in 東京) "user的妹妹小美住在東京".
//
// A message is read as Chinese when it has more Han characters than words
// in other scripts (isChinese), so an English message that names a Chinese
// place keeps the English rules.

// zhState is what the Chinese rules remember across the messages of one
// batch: per speaker, the person they named last, whom 她/他 means.
type zhState struct {
	last map[string]zhWho
}

// zhWho is a clause's subject: the entity and how a fact text names it
// ("user", "user的妹妹小美", "user的媽媽").
type zhWho struct {
	entity, typ, label string
}

var (
	zhRoles     = readZhRoles()
	zhRoleKeys  = sortedKeys(zhRoles)
	zhWordLists = readZhWords()
	zhOccupied  = listSet(readList("zh_occupations.txt"))
)

// zhRole is one line of data/zh_roles.txt.
type zhRole struct {
	role string // the English role of has_<role>
	pet  bool
}

func readZhRoles() map[string]zhRole {
	out := map[string]zhRole{}
	for _, line := range readList("zh_roles.txt") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		r := zhRole{role: strings.Join(f[1:], " ")}
		if p, ok := strings.CutSuffix(r.role, " pet"); ok {
			r.role, r.pet = p, true
		}
		out[f[0]] = r
	}
	return out
}

// sortedKeys returns the keys longest first, so that 男朋友 is tried before
// 朋友 and 媽媽 before 媽.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) > len(keys[j])
		}
		return keys[i] < keys[j]
	})
	return keys
}

// readZhWords reads data/zh_words.txt into its classes, each longest first.
func readZhWords() map[string][]string {
	sets := map[string]map[string]bool{}
	for _, line := range readList("zh_words.txt") {
		class, word, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		if sets[class] == nil {
			sets[class] = map[string]bool{}
		}
		sets[class][strings.TrimSpace(word)] = true
	}
	out := map[string][]string{}
	for class, set := range sets {
		out[class] = sortedKeys(set)
	}
	return out
}

// zhPrefix returns the longest word of class that s starts with, or "".
func zhPrefix(s, class string) string {
	for _, w := range zhWordLists[class] {
		if strings.HasPrefix(s, w) {
			return w
		}
	}
	return ""
}

// isChinese reports whether text is mostly Chinese: it has more Han
// characters than words in other scripts (「我妹妹Emma住在London」 is
// Chinese, "We had 火鍋 at Din Tai Fung" is not).
func isChinese(text string) bool {
	han, words := 0, 0
	inWord := false
	for _, r := range text {
		switch {
		case unicode.Is(unicode.Han, r):
			han++
			inWord = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if !inWord {
				words++
			}
			inWord = true
		default:
			inWord = false
		}
	}
	return han > 0 && han > words
}

var (
	// zhSentenceEnd splits a message into sentences; the mark stays with
	// its sentence so that a question can be told.
	zhSentenceRe = regexp.MustCompile(`[^。！？!?；;\n]+[。！？!?；;]*`)
	zhClauseSep  = regexp.MustCompile(`[，,：:]+`)
	// Patterns on the verb phrase after the subject (and its adverbs).
	zhFromToRe    = regexp.MustCompile(`^(?:從|从)(.+?)搬(?:到|去|回|來|来)(.+)$`)
	zhMoveRe      = regexp.MustCompile(`^(?:已經|已经|剛|刚)?搬(?:家)?(?:到|去|回|來|来|回到)(?:了)?(.+)$`)
	zhLiveRe      = regexp.MustCompile(`^住(?:在)?(.+)$`)
	zhWorkAsAtRe  = regexp.MustCompile(`^在(.+?)(?:當|当|做|擔任|担任)(?:一名|一個|一个|一位)?(.+)$`)
	zhWorkAtRe    = regexp.MustCompile(`^在(.+?)(?:工作|上班|任職|任职|實習|实习|教書|教书)`)
	zhSwitchRe    = regexp.MustCompile(`^(?:換|换|跳槽|轉|转|換工作|换工作)(?:到|去)(.+?)(?:工作|上班)?$`)
	zhGoWorkRe    = regexp.MustCompile(`^(?:去|到)(.+?)(?:工作|上班)$`)
	zhLeftRe      = regexp.MustCompile(`^(?:離開|离开|辭掉|辞掉|辭去|辞去)(?:了)?(.+?)(?:的工作)?$`)
	zhQuitFromRe  = regexp.MustCompile(`^(?:從|从)(.+?)(?:離職|离职|辭職|辞职)`)
	zhIsRe        = regexp.MustCompile(`^(?:是|當|当|擔任|担任)(?:一名|一個|一个|一位|一隻|一只|一條|一条|個|个|名|隻|只)?(.+)$`)
	zhAllergicRe  = regexp.MustCompile(`^(?:對|对)(.+?)過敏|^(?:對|对)(.+?)过敏`)
	zhDislikeRe   = regexp.MustCompile(`^(?:不(?:太)?(?:喜歡|喜欢|愛|爱)|討厭|讨厌)(.+)$`)
	zhLikeRe      = regexp.MustCompile(`^(?:很|最|超|非常|特別|特别|真的|好)?(?:喜歡|喜欢|愛|爱|熱愛|热爱|迷上|迷上了)(?:上)?(.+)$`)
	zhBreakUpRe   = regexp.MustCompile(`^(?:和|跟)(.+?)分手`)
	zhEndingRe    = regexp.MustCompile(`^(?:不再|已經不再|已经不再|已經不|已经不|已經沒有|已经没有|已經沒|已经没|不會再|不会再|沒有再|没有再|沒再|没再)(.+)$`)
	zhNotAnyRe    = regexp.MustCompile(`^(?:不|沒|没)(.+?)了$`)
	zhGoRe        = regexp.MustCompile(`^(?:去|跑去)(.+)$`)
	zhOftenRe     = regexp.MustCompile(`常|每週|每周|每天|每個週末|每个周末|每個月|每个月`)
	zhNamedPetRe  = regexp.MustCompile(`^(?:養|养)(?:了)?(?:一)?(?:隻|只|條|条|個|个)?`)
	zhCallRe      = regexp.MustCompile(`^(?:叫做|叫作|名叫|叫)`)
	zhIsMyRoleRe  = regexp.MustCompile(`^(.{2,4}?)是我(?:的)?`)
	zhQuestionEnd = regexp.MustCompile(`(?:[?？]|[嗎吗呢][。！!]*)$`)
)

// zhEpisode extracts from one Chinese message of speaker subject.
func (c *collector) zhEpisode(ep *lore.Episode, subject, subjectType string, ref time.Time) {
	if c.zh == nil {
		c.zh = &zhState{last: map[string]zhWho{}}
	}
	add := func(f lore.ExtractedFact) {
		f.EpisodeIDs = []string{ep.ID}
		c.fact(f)
	}
	speaker := zhWho{entity: subject, typ: subjectType, label: subject}
	for _, sentence := range zhSentenceRe.FindAllString(captionRe.ReplaceAllString(ep.Content, ""), -1) {
		sentence = strings.TrimSpace(sentence)
		body := strings.TrimRight(sentence, "。！？!?；; ")
		if zhQuestionEnd.MatchString(sentence) {
			// 「我兒子對牛奶過敏，有什麼早餐推薦嗎？」: the clauses before
			// the question still state facts.
			i := strings.LastIndexAny(body, "，,")
			if i < 0 {
				continue
			}
			body = body[:i]
		}
		body = zhStripFillers(body)
		if body == "" || zhPleasantry(body) {
			continue
		}
		var triples int
		who := speaker
		var said []string // clauses made standalone
		for _, clause := range zhClauseSep.Split(body, -1) {
			clause = zhStripFillers(strings.TrimSpace(clause))
			if clause == "" {
				continue
			}
			spans := temporal.Parse(clause, ref)
			var when *time.Time
			if len(spans) > 0 && !spans[0].Start.After(ref) {
				t := spans[0].Start
				when = &t
			}
			var rest string
			var facts []lore.ExtractedFact
			who, rest, facts = c.zhSubject(clause, who, speaker, ref)
			triples += len(facts)
			for _, f := range facts {
				add(f)
			}
			for _, f := range c.zhFacts(who, rest, clause, when, ref) {
				triples++
				add(f)
			}
			said = append(said, zhStandalone(clause, speaker, spans))
		}
		if triples > 0 {
			continue
		}
		// No relation recognised: the sentence stands as a statement when
		// it says enough (eight characters or more, the length of
		// 「我上週去了墾丁玩」).
		text := strings.Join(said, "，")
		if utf8.RuneCountInString(text) < 8+utf8.RuneCountInString(subject)-1 {
			continue
		}
		validAt := timePtr(ref)
		if spans := temporal.Parse(body, ref); len(spans) > 0 && !spans[0].Start.After(ref) {
			t := spans[0].Start
			validAt = &t
		}
		add(lore.ExtractedFact{
			Subject: subject, SubjectType: subjectType, Predicate: "statement",
			Object: text, Text: text, ValidAt: validAt, Confidence: 0.6,
		})
	}
}

// zhStripFillers removes leading interjections and discourse markers, and
// the punctuation after them.
func zhStripFillers(s string) string {
	for {
		s = strings.TrimLeft(s, "，,、 ~～…")
		f := zhPrefix(s, "filler")
		if f == "" || len(f) == len(s) {
			return s
		}
		s = s[len(f):]
	}
}

// zhPleasantry reports a sentence that is only a greeting, thanks or
// reaction.
func zhPleasantry(s string) bool {
	p := zhPrefix(s, "pleasant")
	if p == "" {
		return false
	}
	rest := strings.Trim(s[len(p):], "，,、 ~～…啦喔哦呀啊耶了")
	return utf8.RuneCountInString(rest) <= 2
}

// zhSubject reads who a clause is about from its start: 我 (the speaker),
// 我(的)妹妹小美 (a named role, which also gives the has_<role> fact),
// 我媽 (an unnamed role), 她/他 (the person named last), a known person's
// name, 「小美是我妹妹」; a clause that opens with none keeps the previous
// clause's subject. It returns the subject, the rest of the clause with the
// adverbs and dates before the verb skipped, and the relation facts found.
func (c *collector) zhSubject(clause string, prev, speaker zhWho, ref time.Time) (zhWho, string, []lore.ExtractedFact) {
	var facts []lore.ExtractedFact
	s := clause
	who := prev
	switch {
	case strings.HasPrefix(s, "我們") || strings.HasPrefix(s, "我们"):
		who, s = speaker, s[len("我們"):]
	case strings.HasPrefix(s, "我"):
		who, s = speaker, s[len("我"):]
		if w, rest, f, ok := c.zhOwnedRole(speaker, s, ref); ok {
			who, s, facts = w, rest, f
			c.zh.last[speaker.entity] = w
		}
	case strings.HasPrefix(s, "她") || strings.HasPrefix(s, "他") || strings.HasPrefix(s, "牠"):
		if last, ok := c.zh.last[speaker.entity]; ok {
			who = last
		}
		s = s[len("她"):]
		s = strings.TrimPrefix(s, "們")
		// 「她老公志豪」: a role of the person the pronoun means.
		if _, ok := c.zh.last[speaker.entity]; ok {
			if w, rest, f, ok := c.zhOwnedRole(who, s, ref); ok {
				who, s, facts = w, rest, f
			}
		}
	default:
		if m := zhIsMyRoleRe.FindStringSubmatch(s); m != nil {
			// 「小美是我妹妹」
			if role := zhRoleAt(s[len(m[0]):]); role != "" && zhPlausibleName(m[1]) {
				f := c.zhRelation(speaker, role, m[1], ref)
				facts = append(facts, f)
				c.zh.last[speaker.entity] = zhWho{entity: f.Object, typ: f.ObjectType, label: speaker.label + "的" + role + f.Object}
				return prev, "", facts
			}
		}
		if named, n := c.zhKnownName(s); named.entity != "" {
			who, s = named, s[n:]
			c.zh.last[speaker.entity] = named
			// 「美玲的老公志豪」
			if w, rest, f, ok := c.zhOwnedRole(named, s, ref); ok {
				who, s, facts = w, rest, f
			}
		}
	}
	return who, zhSkipAdverbs(s, ref), facts
}

// zhOwnedRole reads a role of owner at the start of s (「妹妹小美」, 「的老公志豪」,
// 「家的狗叫豆豆」, 「媽」): the person it names, with the has_<role> fact when a
// name follows, or the unnamed role itself (user的媽). ok is false when s
// opens with no role word.
func (c *collector) zhOwnedRole(owner zhWho, s string, ref time.Time) (zhWho, string, []lore.ExtractedFact, bool) {
	rest := strings.TrimPrefix(s, "的")
	rest = strings.TrimPrefix(rest, "家")
	rest = strings.TrimPrefix(rest, "的")
	role := zhRoleAt(rest)
	if role == "" {
		return zhWho{}, s, nil, false
	}
	after := rest[len(role):]
	if m := zhCallRe.FindString(after); m != "" {
		after = after[len(m):]
	}
	if name, n := zhName(after, ref); name != "" {
		f := c.zhRelation(owner, role, name, ref)
		return zhWho{entity: f.Object, typ: f.ObjectType, label: owner.label + "的" + role + f.Object}, after[n:], []lore.ExtractedFact{f}, true
	}
	// An unnamed role stands as itself: user的媽媽.
	label := owner.label + "的" + role
	return zhWho{entity: label, typ: "person", label: label}, after, nil, true
}

// zhRoleAt returns the role word s starts with, or "".
func zhRoleAt(s string) string {
	for _, k := range zhRoleKeys {
		if strings.HasPrefix(s, k) {
			return k
		}
	}
	return ""
}

// zhName returns the name s starts with and its length in bytes: a Latin
// name ("Emma", "David Chen"), or two to three Han characters ended by a
// grammatical word, a date or punctuation (「小美上個月…」 → 小美).
func zhName(s string, ref time.Time) (string, int) {
	if m := latinNameRe.FindString(s); m != "" {
		return strings.TrimSpace(m), len(m)
	}
	stop := len(s)
	if spans := temporal.Parse(s, ref); len(spans) > 0 {
		stop = spans[0].Offset
	}
	n, runes := 0, 0
	for i, r := range s {
		if i >= stop || !unicode.Is(unicode.Han, r) {
			break
		}
		if w := zhPrefix(s[i:], "stop"); w != "" {
			// A name never opens with a grammatical word, but its
			// second character may look like one (小剛, 阿明).
			if runes == 0 {
				return "", 0
			}
			if runes != 1 || utf8.RuneCountInString(w) > 1 || zhPrefix(s[i:], "namechar") == "" {
				break
			}
		}
		n = i + utf8.RuneLen(r)
		runes++
	}
	if runes < 2 || runes > 3 {
		return "", 0
	}
	return s[:n], n
}

// latinNameRe is a capitalized name in Latin letters inside Chinese text.
var latinNameRe = regexp.MustCompile(`^\s*\p{Lu}[\p{Latin}'-]+(?:\s\p{Lu}[\p{Latin}'-]+)?`)

// zhPlausibleName reports whether s can be a name: two to four Han
// characters with no grammatical word, or a Latin name.
func zhPlausibleName(s string) bool {
	if latinNameRe.MatchString(s) {
		return true
	}
	n := 0
	for i, r := range s {
		if !unicode.Is(unicode.Han, r) || zhPrefix(s[i:], "stop") != "" {
			return false
		}
		n++
	}
	return n >= 2 && n <= 4
}

// zhKnownName returns the known person or pet whose name s starts with.
func (c *collector) zhKnownName(s string) (zhWho, int) {
	best := zhWho{}
	n := 0
	consider := func(name, typ, label string) {
		if (typ == "person" || typ == "pet") && len(name) > n && strings.HasPrefix(s, name) {
			best, n = zhWho{entity: name, typ: typ, label: label}, len(name)
		}
	}
	for _, e := range c.ex.Entities {
		consider(e.Name, e.Type, e.Name)
	}
	for _, name := range c.known {
		consider(name, c.knownType[lore.NormalizeName(name)], name)
	}
	if n == 0 {
		return zhWho{}, 0
	}
	// A person with a role gets it in fact texts: user的妹妹小美.
	if label := c.zhRoleLabel(best.entity); label != "" {
		best.label = label
	}
	return best, n
}

// zhRoleLabel is "user的妹妹小美" for a person the batch or the request's
// facts give a role, or "".
func (c *collector) zhRoleLabel(name string) string {
	for _, f := range c.ex.Facts {
		if f.Object == name && strings.HasPrefix(f.Predicate, "has_") && f.InvalidAt == nil {
			return zhLabelOf(f.Subject, f.Predicate, f.Text, name)
		}
	}
	for _, f := range c.candFacts {
		if f.Object == name && strings.HasPrefix(f.Predicate, "has_") && f.InvalidAt == nil {
			return zhLabelOf(f.Subject, f.Predicate, f.Text, name)
		}
	}
	return ""
}

// zhLabelOf rebuilds "user的妹妹小美" from a relation fact's text "小美是user的妹妹".
func zhLabelOf(subject, predicate, text, name string) string {
	if i := strings.Index(text, subject+"的"); i >= 0 {
		return text[i:] + name
	}
	return ""
}

// zhRelation builds (possessor has_<role> name): "小美是user的妹妹".
func (c *collector) zhRelation(possessor zhWho, word, name string, ref time.Time) lore.ExtractedFact {
	r := zhRoles[word]
	typ := "person"
	if r.pet {
		typ = "pet"
	}
	name = c.entity(name, typ)
	return lore.ExtractedFact{
		Subject: possessor.entity, SubjectType: possessor.typ,
		Predicate: rolePredicate(r.role),
		Object:    name, ObjectIsEntity: true, ObjectType: typ,
		Text:       name + "是" + possessor.label + "的" + word,
		ValidAt:    timePtr(ref),
		Confidence: 0.85,
	}
}

// zhSkipAdverbs skips the adverbs and date expressions between a subject
// and its verb: 「上個月已經搬到…」 → 「搬到…」.
func zhSkipAdverbs(s string, ref time.Time) string {
	for {
		s = strings.TrimLeft(s, "，,、 ")
		if zhEndingRe.MatchString(s) {
			return s // 已經不…: an ending, kept whole
		}
		if a := zhPrefix(s, "adverb"); a != "" && len(a) < len(s) {
			s = s[len(a):]
			continue
		}
		if spans := temporal.Parse(s, ref); len(spans) > 0 && spans[0].Offset == 0 && len(spans[0].Text) < len(s) {
			s = s[len(spans[0].Text):]
			continue
		}
		return s
	}
}

// zhObject cleans an object: dates and final particles out, and nothing
// past a comma.
func zhObject(s string, ref time.Time) string {
	if spans := temporal.Parse(s, ref); len(spans) > 0 {
		s = s[:spans[0].Offset] + s[spans[0].Offset+len(spans[0].Text):]
	}
	s = strings.TrimSpace(s)
	for {
		p := ""
		for _, w := range zhWordLists["particle"] {
			if strings.HasSuffix(s, w) {
				p = w
				break
			}
		}
		if p == "" || len(p) == len(s) {
			break
		}
		s = strings.TrimSpace(s[:len(s)-len(p)])
	}
	for _, cut := range []string{"附近", "一帶", "一带"} {
		s = strings.TrimSuffix(s, cut)
	}
	return strings.Trim(s, "「」『』\"' ")
}

// zhFacts applies the verb patterns to the rest of a clause about who.
// clause is the whole clause, for the adverbs skipped before rest.
func (c *collector) zhFacts(who zhWho, rest, clause string, when *time.Time, ref time.Time) []lore.ExtractedFact {
	if rest == "" || who.entity == "" {
		return nil
	}
	at := timePtr(ref)
	eventAt := at
	if when != nil {
		eventAt = when
	}
	fact := func(pred, obj, objType, text string, validAt *time.Time, conf float64) lore.ExtractedFact {
		isEnt := objType != ""
		if isEnt {
			obj = c.entity(obj, objType)
		}
		return lore.ExtractedFact{
			Subject: who.entity, SubjectType: who.typ, Predicate: pred,
			Object: obj, ObjectIsEntity: isEnt, ObjectType: objType,
			Text: text, ValidAt: validAt, Confidence: conf,
		}
	}
	endedFact := func(f lore.ExtractedFact) lore.ExtractedFact {
		f.ValidAt, f.InvalidAt = nil, timePtr(ref)
		f.Confidence = 0.75
		return f
	}
	ok := func(obj string) bool {
		return lore.NormalizeName(obj) != "" && utf8.RuneCountInString(obj) <= 20 && !zhPronouns[obj]
	}
	L := who.label

	// Endings: 不再…, 已經不…, 不…了.
	if m := zhEndingRe.FindStringSubmatch(rest); m != nil {
		neg := rest[:len(rest)-len(m[1])]
		var out []lore.ExtractedFact
		for _, f := range c.zhFacts(who, zhSkipAdverbs(m[1], ref), clause, nil, ref) {
			if f.Predicate == "statement" || f.InvalidAt != nil {
				continue
			}
			f = endedFact(f)
			f.Text = L + neg + strings.TrimPrefix(f.Text, L)
			out = append(out, f)
		}
		if len(out) == 0 {
			if obj := zhObject(m[1], ref); ok(obj) {
				out = append(out, endedFact(fact("does", obj, "", L+neg+obj, nil, 0.7)))
			}
		}
		return out
	}
	if m := zhNotAnyRe.FindStringSubmatch(rest); m != nil {
		var out []lore.ExtractedFact
		for _, f := range c.zhFacts(who, m[1]+"了", clause, nil, ref) {
			if f.Predicate == "statement" || f.InvalidAt != nil || f.Predicate == "dislikes" {
				continue
			}
			f = endedFact(f)
			f.Text = L + "不再" + strings.TrimPrefix(f.Text, L)
			out = append(out, f)
		}
		if len(out) > 0 {
			return out
		}
	}
	if m := zhFromToRe.FindStringSubmatch(rest); m != nil {
		from, to := zhObject(m[1], ref), zhObject(m[2], ref)
		if ok(from) && ok(to) {
			return []lore.ExtractedFact{
				endedFact(fact("lives_in", from, "place", L+"住在"+from, nil, 0.75)),
				fact("lives_in", to, "place", L+"住在"+to, eventAt, 0.8),
			}
		}
	}
	if m := zhMoveRe.FindStringSubmatch(rest); m != nil {
		if to := zhObject(m[1], ref); ok(to) {
			return []lore.ExtractedFact{fact("lives_in", to, "place", L+"住在"+to, eventAt, 0.8)}
		}
	}
	if m := zhLiveRe.FindStringSubmatch(rest); m != nil {
		if place := zhObject(m[1], ref); ok(place) {
			return []lore.ExtractedFact{fact("lives_in", place, "place", L+"住在"+place, at, 0.85)}
		}
	}
	if m := zhWorkAsAtRe.FindStringSubmatch(rest); m != nil {
		org, title := zhObject(m[1], ref), zhObject(m[2], ref)
		if ok(org) && ok(title) {
			out := []lore.ExtractedFact{fact("works_at", org, "organization", L+"在"+org+"工作", at, 0.85)}
			if zhOccupation(title) {
				out = append(out, fact("works_as", title, "", L+"是"+title, at, 0.85))
			}
			return out
		}
	}
	if m := zhWorkAtRe.FindStringSubmatch(rest); m != nil {
		if org := zhObject(m[1], ref); ok(org) {
			return []lore.ExtractedFact{fact("works_at", org, "organization", L+"在"+org+"工作", at, 0.85)}
		}
	}
	if m := zhSwitchRe.FindStringSubmatch(zhObject(rest, ref)); m != nil {
		if org := zhObject(m[1], ref); ok(org) {
			return []lore.ExtractedFact{fact("works_at", org, "organization", L+"在"+org+"工作", eventAt, 0.8)}
		}
	}
	if m := zhGoWorkRe.FindStringSubmatch(zhObject(rest, ref)); m != nil {
		if org := zhObject(m[1], ref); ok(org) {
			return []lore.ExtractedFact{fact("works_at", org, "organization", L+"在"+org+"工作", eventAt, 0.8)}
		}
	}
	if m := zhQuitFromRe.FindStringSubmatch(rest); m != nil {
		if org := zhObject(m[1], ref); ok(org) {
			return []lore.ExtractedFact{endedFact(fact("works_at", org, "organization", L+"在"+org+"工作", nil, 0.75))}
		}
	}
	if m := zhLeftRe.FindStringSubmatch(zhObject(rest, ref)); m != nil {
		if obj := zhObject(m[1], ref); ok(obj) {
			if _, lived := c.prior(who.entity, "lives_in", obj); lived {
				return []lore.ExtractedFact{endedFact(fact("lives_in", obj, "place", L+"住在"+obj, nil, 0.75))}
			}
			return []lore.ExtractedFact{endedFact(fact("works_at", obj, "organization", L+"在"+obj+"工作", nil, 0.75))}
		}
	}
	if m := zhAllergicRe.FindStringSubmatch(rest); m != nil {
		if obj := zhObject(m[1]+m[2], ref); ok(obj) {
			return []lore.ExtractedFact{fact("allergic_to", obj, "", L+m[0], at, 0.9)}
		}
	}
	if m := zhBreakUpRe.FindStringSubmatch(rest); m != nil {
		if name := zhObject(m[1], ref); ok(name) {
			out := []lore.ExtractedFact{endedFact(fact("dates", name, "person", L+"和"+name+"交往", nil, 0.75))}
			// The boyfriend or girlfriend relation ends with it.
			for _, pred := range []string{"has_boyfriend", "has_girlfriend"} {
				if _, found := c.prior(who.entity, pred, name); found {
					f := endedFact(fact(pred, name, "person", "", nil, 0.75))
					f.Text = name + "是" + L + "的" + map[string]string{"has_boyfriend": "男朋友", "has_girlfriend": "女朋友"}[pred]
					out = append(out, f)
				}
			}
			return out
		}
	}
	if m := zhDislikeRe.FindStringSubmatch(rest); m != nil {
		if obj := zhObject(m[1], ref); ok(obj) {
			return []lore.ExtractedFact{fact("dislikes", obj, "", L+rest[:len(rest)-len(m[1])]+obj, at, 0.8)}
		}
	}
	if m := zhLikeRe.FindStringSubmatch(rest); m != nil {
		if obj := zhObject(m[1], ref); ok(obj) {
			verb := rest[:len(rest)-len(m[1])]
			return []lore.ExtractedFact{fact("likes", obj, "", L+verb+obj, at, 0.75)}
		}
	}
	if m := zhIsRe.FindStringSubmatch(rest); m != nil {
		obj := zhObject(m[1], ref)
		if !ok(obj) {
			return nil
		}
		if zhOccupation(obj) {
			return []lore.ExtractedFact{fact("works_as", obj, "", L+"是"+obj, at, 0.85)}
		}
		// 「我是說…」, 「我是在台北長大的」: 是 before a verb phrase says
		// nothing of what the subject is.
		if strings.HasPrefix(rest, "是") && utf8.RuneCountInString(obj) <= 8 && zhPrefix(obj, "stop") == "" {
			return []lore.ExtractedFact{fact("is_a", obj, "", L+"是"+obj, at, 0.6)}
		}
	}
	if m := zhGoRe.FindStringSubmatch(zhObject(rest, ref)); m != nil && zhOftenRe.MatchString(clause) {
		if place := zhObject(m[1], ref); ok(place) && utf8.RuneCountInString(place) <= 6 {
			return []lore.ExtractedFact{fact("goes_to", place, "", L+"常去"+place, at, 0.7)}
		}
	}
	if m := zhNamedPetRe.FindString(rest); m != "" {
		after := rest[len(m):]
		if role := zhRoleAt(after); role != "" && zhRoles[role].pet {
			after = after[len(role):]
			if call := zhCallRe.FindString(after); call != "" {
				if name, _ := zhName(after[len(call):], ref); name != "" {
					return []lore.ExtractedFact{c.zhRelation(who, role, name, ref)}
				}
			}
		}
	}
	return nil
}

// zhPronouns are objects that name no one in particular without their
// antecedent: 「我喜歡你」 states no fact worth keeping.
var zhPronouns = listSet(strings.Fields("你 您 妳 他 她 它 牠 你們 你们 他們 他们 她們 她们 它們 它们 這 这 那 這個 这个 那個 那个 這些 这些 那些 自己 大家"))

// zhOccupation reports a job title: a word of data/zh_occupations.txt at
// its end, or a final 師/师/員/员.
func zhOccupation(s string) bool {
	for w := range zhOccupied {
		if strings.HasSuffix(s, w) {
			return true
		}
	}
	return strings.HasSuffix(s, "師") || strings.HasSuffix(s, "师") || strings.HasSuffix(s, "員") || strings.HasSuffix(s, "员")
}

// zhStandalone makes a clause stand alone: 我/我們 → the speaker, relative
// dates → the dates they mean (「上個月」 → 「2024年4月」).
func zhStandalone(clause string, speaker zhWho, spans []temporal.Span) string {
	for i := len(spans) - 1; i >= 0; i-- {
		s := spans[i]
		if abs := zhDate(s); abs != "" && abs != s.Text {
			clause = clause[:s.Offset] + abs + clause[s.Offset+len(s.Text):]
		}
	}
	r := strings.NewReplacer("我們", speaker.label+"和其他人", "我们", speaker.label+"和其他人", "我", speaker.label)
	return r.Replace(clause)
}

// zhDate writes a resolved span as an absolute Chinese date: a day
// 「2024年5月7日」, a week 「2024年4月22日那週」, a month 「2024年4月」, a year
// 「2023年」; other spans as written.
func zhDate(s temporal.Span) string {
	d := s.End.Sub(s.Start)
	switch {
	case d == 24*time.Hour:
		return s.Start.Format("2006年1月2日")
	case d == 7*24*time.Hour && s.Start.Weekday() == time.Monday:
		return s.Start.Format("2006年1月2日") + "那週"
	case s.Start.Day() == 1 && s.End.Equal(s.Start.AddDate(0, 1, 0)):
		return s.Start.Format("2006年1月")
	case s.Start.YearDay() == 1 && s.End.Equal(s.Start.AddDate(1, 0, 0)):
		return s.Start.Format("2006年")
	}
	return s.Text
}
