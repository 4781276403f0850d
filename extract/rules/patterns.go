package rules

import "regexp"

// statement is one first-person or third-person sentence shape and the fact
// it states. The object is capture group 1 unless noted.
type statement struct {
	re *regexp.Regexp
	// predicate is the normalized predicate; "%s" is replaced by capture
	// group 1 (favourite_%s) and the object is then group 2.
	predicate string
	// verb is how the fact sentence says it: "lives in", "works at".
	verb string
	// objectType is the entity type when the object is a name.
	objectType string
	// event marks things that happen at a time (moved, went, started), so
	// a date in the sentence becomes the fact's valid_at.
	event      bool
	confidence float64
	// literal keeps a capitalized object as a value, not an entity: a
	// person's own name is an attribute of them.
	literal bool
	// secondary marks a value said in passing ("we share a flat in
	// Neukölln"), kept only when the message states no other value of the
	// predicate ("I live in Berlin btw, we share a flat in Neukölln").
	secondary bool
}

const (
	subj = `(?i)\b(?:i|we)\s+(?:(?:have|had|has)\s+)?(?:just\s+|recently\s+|finally\s+|also\s+|really\s+|actually\s+|currently\s+|now\s+|still\s+|already\s+|usually\s+|often\s+|always\s+|even\s+|been\s+|only\s+|mostly\s+|mainly\s+)*`
)

// diets are data/diets.txt; dietAlt is one of them said with "is", of the
// speaker or of a named person (relations.go), or no longer ("I'm not vegan
// anymore", endings.go).
var (
	diets   = listSet(readList("diets.txt"))
	dietAlt = "(" + alternation(diets) + ")"
)

// conditions are data/conditions.txt; conditionAlt is one of them said by
// the speaker with "have", "suffer from" or "live with". "diagnosed with"
// takes any words.
var (
	conditions   = listSet(readList("conditions.txt"))
	conditionAlt = "(" + alternation(conditions) + ")"
	// conditionVerb says that someone has a condition, present tense: "had
	// asthma as a kid" is no condition now.
	conditionVerb = `(?:have|has|have\s+got|has\s+got|got|suffer\s+from|suffers\s+from|live\s+with|lives\s+with|am\s+living\s+with|is\s+living\s+with)\s+(?:mild\s+|severe\s+|chronic\s+|bad\s+|really\s+bad\s+|early[- ]stage\s+|early[- ]onset\s+)?`
	// diagnosed is the start of "diagnosed with …", after the subject.
	diagnosed = `(?:was\s+|were\s+|got\s+|am\s+|are\s+|is\s+|has\s+been\s+|have\s+been\s+)?(?:recently\s+|just\s+|finally\s+|officially\s+|only\s+)?diagnosed\s+with\s+(?:a\s+|an\s+|mild\s+|severe\s+|early[- ]stage\s+)?`
)

// medications are data/medications.txt; medicationAlt is one of them said
// with "on", "take" or "prescribed".
var (
	medications   = listSet(readList("medications.txt"))
	medicationAlt = "(" + alternation(medications) + ")"
)

// medicationNoteRe is a medicine said as a note: "On metformin.", "Also on
// ramipril".
var medicationNoteRe = regexp.MustCompile(`(?i)^\s*(?:(?:now|also|still|and)\s+)?on\s+(?:daily\s+|low[- ]dose\s+)?` + medicationAlt + `\b[^.!?]{0,30}[.!?]*\s*$`)

// statements are tried in order on each sentence; the more specific come first.
var statements = []statement{
	{re: regexp.MustCompile(`(?i)\bmy name is\s+(.+)`), predicate: "name", verb: "is named", confidence: 0.9, literal: true},
	{re: regexp.MustCompile(`(?i)\b(?:i am|i'm)\s+(\d{1,3})\s+years?\s+old`), predicate: "age", verb: "is years old:", confidence: 0.9},
	// "we live out in Fana", "I live over in Ballard": the adverb says
	// nothing about where.
	{re: regexp.MustCompile(subj + `(?:live|living|lives)\s+(?:still\s+|now\s+|currently\s+)?(?:(?:out|over|down|up)\s+)?in\s+(.+)`), predicate: "lives_in", verb: "lives in", objectType: "place", confidence: 0.85},
	{re: regexp.MustCompile(subj + `(?:moved|moving|relocated|relocating)\s+(?:back\s+)?to\s+(.+)`), predicate: "lives_in", verb: "moved to", objectType: "place", event: true, confidence: 0.8},
	// "ok moved to hsr layout finally", "Finally moved to Leeds!": a move
	// said without its subject, as texts and notes do.
	{re: regexp.MustCompile(`(?i)^\s*(?:(?:ok|okay|so|well|also|and|update|news|big\s+news|guess\s+what)\s*[,:!]*\s+)*(?:(?:just|finally|recently|officially)\s+)*(?:moved|relocated)\s+(?:back\s+)?to\s+(.+)`), predicate: "lives_in", verb: "moved to", objectType: "place", event: true, confidence: 0.75},
	// "I moved up to Prescott", "we moved down to Cork": a capital, since
	// "moved up to a senior role" is no move.
	{re: regexp.MustCompile(subj + `(?:moved|moving|relocated)\s+(?:up|down|over|out|back\s+up|back\s+down)\s+to\s+(?-i:(\p{Lu}.+))`), predicate: "lives_in", verb: "moved to", objectType: "place", event: true, confidence: 0.8},
	// "I'm now renting a one-bedroom in Lekki", "now I share a house in
	// Sannomiya", "we rent a 2bhk in Baner", "We're renting in Croydon": a
	// home rented or shared.
	{re: regexp.MustCompile(`(?i)\b(?:i|we)\s+(?:(?:am|are|'m|'re|now|currently|still|just|also)\s+)*(?:rent|renting|rented|share|sharing|shared)\s+(?:a|an|the|our|my)\s+(?:[\p{L}\d-]+\s+){0,2}?(?:flat|house|apartment|apt|place|room|studio|unit|condo|bedsit|one-bedroom|two-bedroom|1bhk|2bhk|3bhk|1-bed|2-bed|one-bed|two-bed)\s+(?:[\p{L}-]+\s+){0,2}?in\s+(?-i:(\p{Lu}.+))|\b(?:i\s+am|i'm|we\s+are|we're)\s+(?:now\s+)?renting\s+in\s+(?-i:(\p{Lu}.+))`), predicate: "lives_in", verb: "lives in", objectType: "place", confidence: 0.8, secondary: true},
	// "I'm now living in Lisbon", "we are currently living in Ghent"
	{re: regexp.MustCompile(`(?i)\b(?:i|we)\s+(?:am|are)\s+(?:(?:now|currently|still|actually)\s+)*living\s+(?:(?:out|over|down|up)\s+)?in\s+(?-i:(\p{Lu}.+))`), predicate: "lives_in", verb: "lives in", objectType: "place", confidence: 0.85},
	// "finally got the keys to the flat in Porto", "just moved into a new
	// place in Brooklyn", "we bought a house in Galway", "i moved out of
	// halls into a house in Hyde Park", "we have now
	// moved into a flat at Nordnes": a home taken.
	{re: regexp.MustCompile(`(?i)(?:^|\b(?:i|we)\s+)(?:(?:have|has|just|finally|now|recently)\s+)*(?:got\s+the\s+keys\s+(?:to|for)|moved\s+(?:out\s+of\s+[^,.;!?]{1,30}?\s+)?into|bought)\s+(?:a|an|the|our|my)\s+(?:(?:new|little|small|tiny|old|first)\s+)*(?:flat|house|apartment|apt|place|home|condo|cottage|townhouse)\s+(?:in|at)\s+(?-i:(\p{Lu}.+))`), predicate: "lives_in", verb: "moved to", objectType: "place", event: true, confidence: 0.75},
	// "Back in Toronto for good."
	{re: regexp.MustCompile(`(?i)(?:^|\b(?:i\s+am|i'm|we\s+are|we're)\s+)(?:now\s+)?back\s+(?:home\s+)?in\s+(?-i:(\p{Lu}[\p{L}-]+(?:\s+\p{Lu}[\p{L}-]+)?))\s+for\s+good\b`), predicate: "lives_in", verb: "moved to", objectType: "place", event: true, confidence: 0.8},
	// "Julien and I moved in together in Verdun", "I moved in with Sam in
	// Leith": a home shared from then on.
	{re: regexp.MustCompile(subj + `(?:moved|moving)\s+in\s+(?:together|with\s+\p{Lu}[\p{L}-]*)\s+(?:in|to)\s+(?-i:(\p{Lu}.+))`), predicate: "lives_in", verb: "moved to", objectType: "place", event: true, confidence: 0.8},
	// "we ended up moving to York", "I'm in Marseille these days": a move
	// that is done, a home said to hold now ("I'm in London now" may be a
	// trip, "I'm in Marketing now" a department).
	{re: regexp.MustCompile(subj + `(?:ended|end)\s+up\s+(?:moving|relocating|living)\s+(?:back\s+)?(?:to|in)\s+(?-i:(\p{Lu}.+))`), predicate: "lives_in", verb: "moved to", objectType: "place", event: true, confidence: 0.8},
	{re: regexp.MustCompile(`(?i)\b(?:i am|i'm|we are|we're)\s+(?:now\s+)?(?:living\s+)?in\s+(?-i:(\p{Lu}[\p{L}-]+(?:\s+\p{Lu}[\p{L}-]+)?))\s+(?:these\s+days|nowadays)\b`), predicate: "lives_in", verb: "lives in", objectType: "place", confidence: 0.75},
	// "I'm based in Leeds", "I'm a 34 year old architect living in Lisbon":
	// where the speaker lives, said after who they are.
	{re: regexp.MustCompile(`(?i)\b(?:i am|i'm|we are|we're)\s+(?:currently\s+|now\s+)?based\s+in\s+(?-i:(\p{Lu}.+))`), predicate: "lives_in", verb: "lives in", objectType: "place", confidence: 0.8},
	{re: regexp.MustCompile(`(?i)\b(?:i am|i'm)\s+(?:a|an)\s+[^,.;!?]{1,40}?\s+(?:living|based)\s+in\s+(?-i:(\p{Lu}.+))`), predicate: "lives_in", verb: "lives in", objectType: "place", confidence: 0.8},
	// "new place is in Tema", "our new flat's in Leith": a move that is done.
	{re: regexp.MustCompile(`(?i)(?:^|[,;:]\s*|\b(?:my|our)\s+)new\s+(?:place|flat|apartment|apt|house|home)(?:\s+is|'s|’s)?\s+(?:in|at)\s+(?-i:(\p{Lu}.+))`), predicate: "lives_in", verb: "moved to", objectType: "place", event: true, confidence: 0.75},
	// "Settled in Alicante finally": a move that is done.
	{re: regexp.MustCompile(subj + `(?:settled|settling)\s+(?:in|into)\s+(?-i:(\p{Lu}.+))`), predicate: "lives_in", verb: "moved to", objectType: "place", event: true, confidence: 0.75},
	// "I have shifted to Pune" (Indian English); a capital, since "shifted
	// to Thursdays" or "to remote work" is no move.
	{re: regexp.MustCompile(subj + `(?:shifted|shifting)\s+(?:back\s+)?to\s+(?-i:(\p{Lu}.+))`), predicate: "lives_in", verb: "moved to", objectType: "place", event: true, confidence: 0.75},
	{re: regexp.MustCompile(subj + `(?:work|working|works)\s+(?:(?:part|full)[- ]time\s+|remotely\s+)?(?:at|for)\s+(.+)`), predicate: "works_at", verb: "works at", objectType: "organization", confidence: 0.85},
	{re: regexp.MustCompile(subj + `(?:got|started|landed|accepted|took|start|starting|have)\s+(?:a\s+|an\s+|my\s+|the\s+)?(?:new\s+)?(?:(?:part|full)[- ]time\s+|summer\s+|weekend\s+)?(?:job|position|post|role|offer|internship)\s+(?:at|with|from)\s+(.+)`), predicate: "works_at", verb: "started a job at", objectType: "organization", event: true, confidence: 0.8},
	{re: regexp.MustCompile(subj + `(?:am\s+|are\s+)?(?:start|starting|started|begin|beginning|began)\s+(?:work(?:ing)?\s+|(?:a|my)\s+new\s+job\s+)?(?:at|with)\s+(\p{Lu}.+)`), predicate: "works_at", verb: "works at", objectType: "organization", event: true, confidence: 0.8},
	// "i switched jobs, now at a game studio in kyoto", "changed jobs -
	// now working at Halden": the new employer.
	{re: regexp.MustCompile(`(?i)\b(?:switched|changed|swapped)\s+jobs?\b[^.!?;]{0,20}?[,;:—–-]?\s*(?:(?:i'm|im|i\s+am|i’m)\s+)?now\s+(?:working\s+)?(?:at|with|for)\s+(.+)`), predicate: "works_at", verb: "works at", objectType: "organization", event: true, confidence: 0.8},
	// "I've been at Spotify for two months now": an employer held a while.
	{re: regexp.MustCompile(`(?i)\b(?:i|we)\s+(?:have|'ve|’ve)\s+been\s+(?:working\s+)?at\s+(?-i:(\p{Lu}[\p{L}&.'’-]*(?:\s+\p{Lu}[\p{L}&.'’-]*)*))\s+(?:for|since)\s`), predicate: "works_at", verb: "works at", objectType: "organization", confidence: 0.8},
	// "i got hired at Atelier Brume": a capital, since "hired at the
	// last minute" is no employer.
	{re: regexp.MustCompile(subj + `(?:got|was|were|been|get)\s+hired\s+(?:at|by)\s+(\p{Lu}.+)`), predicate: "works_at", verb: "works at", objectType: "organization", event: true, confidence: 0.8},
	{re: regexp.MustCompile(subj + `(?:work|working)\s+as\s+(?:a\s+|an\s+)?(.+)`), predicate: "works_as", verb: "works as", confidence: 0.85},
	{re: regexp.MustCompile(`(?i)\b(?:i am|i'm|i(?:\s+(?:just|finally|recently))?\s+got)\s+(?:now\s+)?married\s+to\s+(.+)`), predicate: "married_to", verb: "is married to", objectType: "person", confidence: 0.85},
	{re: regexp.MustCompile(`(?i)\b(?:i am|i'm|i(?:\s+(?:just|finally|recently))?\s+got)\s+(?:now\s+)?engaged\s+to\s+(.+)`), predicate: "engaged_to", verb: "is engaged to", objectType: "person", confidence: 0.85},
	// "I'm from Penang", "I'm originally from Kochi"; a capital, since "I'm
	// from work" is no origin.
	{re: regexp.MustCompile(`(?i)\b(?:i am|i'm|we are|we're)\s+(?:originally\s+|actually\s+)?from\s+(?-i:(\p{Lu}.+))`), predicate: "comes_from", verb: "comes from", objectType: "place", confidence: 0.8},
	// "I am Argentinian, from Rosario": a nationality, then the home town.
	{re: regexp.MustCompile(`(?i)\b(?:i am|i'm)\s+(?-i:\p{Lu}\p{L}+(?:an|ese|ish|i|ch|ic))\s*,\s+(?:originally\s+)?from\s+(?-i:(\p{Lu}.+))`), predicate: "comes_from", verb: "comes from", objectType: "place", confidence: 0.8},
	{re: regexp.MustCompile(`(?i)\bi was born\s+(?:and raised\s+)?in\s+(.+)`), predicate: "born_in", verb: "was born in", objectType: "place", confidence: 0.85},
	{re: regexp.MustCompile(subj + `(?:grew up|was raised)\s+in\s+(.+)`), predicate: "grew_up_in", verb: "grew up in", objectType: "place", confidence: 0.85},
	{re: regexp.MustCompile(subj + `(?:study|studying|studied|enrolled)\s+(?:at|in)\s+([A-Z].+)`), predicate: "studies_at", verb: "studies at", objectType: "organization", confidence: 0.75},
	{re: regexp.MustCompile(`(?i)\bmy\s+(?:favou?rite)\s+([a-z]+(?:\s+[a-z]+)?)\s+(?:is|are|was)\s+(.+)`), predicate: "favorite_%s", verb: "favorite %s is", confidence: 0.85},
	// "my salary is now 600k", "salary is 450k naira" (said by the speaker
	// of their own pay; another's is "Meera's salary").
	{re: regexp.MustCompile(`(?i)(?:^|,\s*|\bmy\s+)(?:monthly\s+|annual\s+|yearly\s+|net\s+|gross\s+|take[- ]home\s+)?(?:salary|income)\s+is\s+(?:now\s+|about\s+|around\s+|roughly\s+|only\s+)?((?:R\$|[$€£₹¥])?\s?\d[\d.,]*\s*(?:k|K|m|M|million|thousand)?(?:\s+(?:naira|euros?|eur|dollars?|usd|pounds?|gbp|rupees?|inr|yen|reais|rand|shillings?|kes))?)`), predicate: "salary", verb: "earns a salary of", confidence: 0.8},
	{re: regexp.MustCompile(`(?i)\b(?:i am|i'm)\s+allergic\s+to\s+(.+)`), predicate: "allergic_to", verb: "is allergic to", confidence: 0.9},
	{re: regexp.MustCompile(`(?i)\b(?:i am|i'm)\s+(?:a\s+)?` + dietAlt + `\b`), predicate: "diet", verb: "is", confidence: 0.85},
	// "I was diagnosed with type 2 diabetes", "I have asthma", "I've got
	// a bad back", "I live with MS".
	{re: regexp.MustCompile(subj + diagnosed + `([\p{L}\d'’ -]+)`), predicate: "has_condition", verb: "was diagnosed with", event: true, confidence: 0.85, literal: true},
	// "I'm on metformin", "On levothyroxine." (a note), "I take sertraline",
	// "the doctor put me on ramipril".
	{re: regexp.MustCompile(`(?i)(?:\b(?:i\s+am|i'm|im|i’m)\s+(?:(?:now|still|also|currently)\s+)*on|\b(?:i|we)\s+(?:(?:now|still|also|currently|have\s+to|need\s+to)\s+)*(?:take|am\s+taking|have\s+been\s+taking|started\s+taking|started\s+on)|\b(?:put\s+me\s+on|prescribed\s+me|i\s+was\s+prescribed|i\s+got\s+prescribed))\s+(?:daily\s+|low[- ]dose\s+)?` + medicationAlt + `\b`), predicate: "takes_medication", verb: "takes", event: true, confidence: 0.8, literal: true},
	{re: regexp.MustCompile(subj + conditionVerb + conditionAlt + `\b`), predicate: "has_condition", verb: "has", confidence: 0.8, literal: true},
	// "so pescatarian now", "vegan these days": a diet said to hold now.
	{re: regexp.MustCompile(`(?i)(?:^\s*|,\s*|\bso\s+)(?:(?:i\s+am|i'm|im)\s+)?(?:now\s+)?(?:a\s+)?` + dietAlt + `\s+(?:now|these\s+days|nowadays)\b`), predicate: "diet", verb: "is", confidence: 0.8},
	// "I went fully vegan in June", "we've gone vegetarian": a diet taken up.
	{re: regexp.MustCompile(subj + `(?:went|gone|going|go|became|become|turned|switched\s+to|converted\s+to)\s+(?:fully\s+|completely\s+|totally\s+|full\s+|strictly\s+)?(?:a\s+)?` + dietAlt + `\b`), predicate: "diet", verb: "went", event: true, confidence: 0.8},
	{re: regexp.MustCompile(subj + `(?:prefer|prefers)\s+(.+)`), predicate: "prefers", verb: "prefers", confidence: 0.8},
	{re: regexp.MustCompile(subj + `(?:don't|do not|didn't|did not)\s+(?:really\s+)?(?:like|enjoy)\s+(.+)`), predicate: "dislikes", verb: "dislikes", confidence: 0.8},
	{re: regexp.MustCompile(subj + `(?:hate|hates|dislike|dislikes|can't stand|cannot stand)\s+(.+)`), predicate: "dislikes", verb: "dislikes", confidence: 0.8},
	{re: regexp.MustCompile(subj + `(?:like|likes|love|loves|enjoy|enjoys|adore|adores|am into|am passionate about|am a big fan of|am a fan of|am obsessed with)\s+(.+)`), predicate: "likes", verb: "likes", confidence: 0.75},
	{re: regexp.MustCompile(subj + `(?:started|began|took up|taken up|picked up|start|begin)\s+(.+)`), predicate: "started", verb: "started", event: true, confidence: 0.7},
	{re: regexp.MustCompile(subj + `(?:went|go|going|traveled|travelled|flew|drove|headed|took a trip|take a trip|went on a trip)\s+to\s+(.+)`), predicate: "went_to", verb: "went to", objectType: "place", event: true, confidence: 0.75},
	{re: regexp.MustCompile(subj + `(?:visited|visit|visiting|attended|attend|attending)\s+(.+)`), predicate: "attended", verb: "attended", event: true, confidence: 0.75},
	{re: regexp.MustCompile(subj + `(?:joined|join|joining|signed up for|volunteered at|volunteer at|volunteering at)\s+(.+)`), predicate: "joined", verb: "joined", event: true, confidence: 0.75},
	{re: regexp.MustCompile(subj + `(?:play|plays|playing)\s+(?:the\s+)?(.+)`), predicate: "plays", verb: "plays", confidence: 0.7},
	{re: regexp.MustCompile(subj + `(?:am|are)\s+(?:learning|taking)\s+(.+)`), predicate: "learning", verb: "is learning", confidence: 0.7},
	{re: regexp.MustCompile(subj + `(?:am|are)\s+(?:planning|going|hoping|about)\s+to\s+(.+)`), predicate: "plans_to", verb: "plans to", confidence: 0.65},
	{re: regexp.MustCompile(subj + `(?:want|wants|would like|wish|hope)\s+to\s+(.+)`), predicate: "wants_to", verb: "wants to", confidence: 0.65},
	{re: regexp.MustCompile(subj + `(?:adopted|bought|made|painted|wrote|read|watched|finished|built|baked|cooked|ran|won|lost|received|gave|created|drew|sold|planted|organized|hosted|published|completed|tried)\s+(.+)`), predicate: "did", verb: "", event: true, confidence: 0.65},
	{re: regexp.MustCompile(`(?i)\b(?:i am|i'm)\s+(?:a|an)\s+(.+)`), predicate: "is_a", verb: "is a", confidence: 0.6},
	{re: regexp.MustCompile(subj + `(?:have|has|own)\s+(?:a|an|two|three|four|\d+)\s+(.+)`), predicate: "has", verb: "has", confidence: 0.6},
}
