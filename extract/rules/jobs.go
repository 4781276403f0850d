package rules

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/lore-memory/lore"
)

var (
	// "I'm a backend dev at Hollis Analytics", "I'm now a senior data
	// analyst", "I'm 64, a signal technician at Transnet"
	myJobRe = regexp.MustCompile(`(?i:\b(?:i\s+am|i'm|i’m|i\s+have\s+been|i've\s+been)\s+(?:\d{1,3}(?:\s+years?\s+old)?,\s+)?(?:(?:now|currently|still|also|literally|actually|basically|officially|really|just)\s+)*(?:a|an)\s+)([^,;!?()]+)`)
	// "I am chef in hotel restaurant", "she is dental hygienist": a title
	// said without an article, read only when it is a bare occupation
	// (bareTitle).
	myBareJobRe    = regexp.MustCompile(`(?i:\b(?:i\s+am|i'm|i’m)\s+(?:(?:now|currently|still|also|literally|actually|basically|officially)\s+)*)([^,;!?()]+)`)
	theirBareJobRe = regexp.MustCompile(nameRe + `(?:\s+is|'s|’s)\s+(?:now\s+|also\s+|still\s+)?(\p{Ll}[^,;!?()]*)`)
	// "Joining Parcelwala (logistics startup) as a product analyst",
	// "I joined Mavuno Seeds as field agronomist", "starting at Ridge
	// Hospital as a nurse": a new employer and title.
	myJoinAsRe = regexp.MustCompile(`(?i:\b(?:i|we)\s+(?:am\s+|have\s+|had\s+|will\s+be\s+)?(?:just\s+|finally\s+|officially\s+|now\s+)*(?:join(?:ed|ing|s)?|start(?:ed|ing|s)?\s+at|mov(?:ed|ing)\s+to|switch(?:ed|ing)\s+to)\s+)` + orgAlt + `(?:\s*\([^)]*\))?(?i:\s+(?:last|this)\s+(?:week|month|year|spring|summer|autumn|fall|winter)|,?\s+(?:still|again|now))?(?i:\s+as\s+(?:a\s+|an\s+|the\s+|their\s+|our\s+)?)([^,;!?()]+)`)
	// "As a civil engineer, I…", "my job as a paramedic is…": the
	// speaker's title said in passing (an occupation, at most three words).
	myAsJobRe = regexp.MustCompile(`(?i)(?:^\s*|[,;]\s*|\b(?:and|but|so)\s+)as\s+(?:a|an|the)\s+([\p{L}-]+(?:\s+[\p{L}-]+){0,2}?)\s*,\s*(?:i|i'm|i’m|i've|i’ve|i\s+am|i\s+have|we)\b`)
	myJobAsRe = regexp.MustCompile(`(?i)\bmy\s+(?:job|work|role|day\s+job)\s+as\s+(?:a|an)\s+([\p{L}-]+(?:\s+[\p{L}-]+){0,2}?)(?:\s+(?:is|was|at|in|for|keeps|means|has|pays)\b|\s*[,.;!?]|\s*$)`)
	byTradeRe = regexp.MustCompile(`(?i)\s+by\s+(?:trade|profession)\b`)
	// "They offered me a position at Colegio Las Fuentes, as vice
	// principal!": a new employer and title offered to the speaker.
	offeredMeRe = regexp.MustCompile(`(?i:\b(?:they|he|she|we|\p{Lu}[\p{L}-]+)\s+(?:just\s+|finally\s+|have\s+|has\s+)*offered\s+me\s+(?:a|an|the)\s+(?:new\s+)?(?:(?:full|part)[- ]time\s+)?(?:job|position|post|role)\s+(?:at|with)\s+)` + orgAlt + `(?:,?\s+(?i:as\s+(?:a\s+|an\s+|the\s+)?)([^,;!?()]+))?`)
	// "im doing marine bio at uq, first year", "I'm studying law at
	// Makerere": a field of study (data/things.txt) and the school.
	myStudyingRe = regexp.MustCompile(`(?i:\b(?:i\s+am|i'm|i’m|im)\s+(?:(?:currently|now|still|also)\s+)*(?:doing|studying|majoring\s+in|reading)\s+)([\p{L}][\p{L} -]{1,30}?)(?:\s+(?i:at)\s+([\p{L}][\p{L}&.'’-]*(?:\s+\p{Lu}[\p{L}&.'’-]*)*))?\s*(?:[,.;!?]|\s+(?i:and|but|so|first|second|third|final|now)\b|$)`)
	// "priya is doing physio", "Kofi's studying law"
	theirStudyingRe = regexp.MustCompile(nameRe + `(?:\s+is|'s|’s)\s+(?:(?:currently|now|still|also)\s+)*(?i:doing|studying|majoring\s+in)\s+([\p{L}][\p{L} -]{1,30}?)\s*(?:[,.;!?]|\s+(?i:and|but|so|at|in|now)\b|$)`)
	// "first week at McGill!! studying mechanical engineering", "my first
	// day at Stripe went fine": a new school or employer (a school when
	// the message speaks of study).
	// "New job at Accenture starts Monday", "my new job at Ocado" (another's
	// is "his new job").
	firstDaysAtRe = regexp.MustCompile(`(?i:(?:^\s*|\b(?:my|our)\s+)(?:(?:first|1st)\s+(?:full\s+)?(?:day|week|month|shift|semester|term)|(new)\s+(?:job|position|role|gig))\s+(?:at|with)\s+)` + orgAlt)
	studyWordsRe  = regexp.MustCompile(`(?i)\b(?:studying|study|student|uni|university|college|class|classes|lectures?|semester|term|degree|major|course)\b`)
	// "i run a small roofing crew out of lubbock", "Lanto opened a hotely
	// in Antalaha", "Kofi runs a phone repair shop": a business someone
	// runs is their work.
	businessNouns   = `(?:business|company|crew|firm|shop|store|bakery|restaurant|cafe|café|salon|studio|practice|clinic|farm|agency|garage|bar|pub|hotel|hotely|workshop|startup|stall|kiosk|cold\s+store|daycare|nursery|food\s+truck)`
	myBusinessRe    = regexp.MustCompile(`(?i:\b(?:i|we)\s+(?:(?:now|still|also|just|finally)\s+)*(?:run|own|opened|started|manage)\s+(?:a|an|my|our)\s+)((?:[\p{L}-]+\s+){0,3}?` + businessNouns + `)\b`)
	theirBusinessRe = regexp.MustCompile(nameRe + `\s+(?:(?:now|still|also|just|finally)\s+)*(?i:runs|owns|opened|started|manages|has)\s+(?i:a|an|his|her|their)\s+((?i:(?:[\p{L}-]+\s+){0,3}?` + businessNouns + `))\b`)
	// "GOT THE JOB!!! junior UX designer at Takealot 🎉 starting in
	// september": a title and employer said alone, as a note.
	titleAtFragmentRe = regexp.MustCompile(`^\s*([\p{L}][\p{L} -]{1,40}?)\s+(?i:at|with)\s+` + orgAlt + `\s*(?:$|[!.,;:]|\p{So}|\s+(?i:starting|from|since|now|starts)\b)`)
	// "I switched to a fintech startup last month", "got a job at a law firm":
	// a new employer said in lower case (lowerWorkplace).
	mySwitchedToRe = regexp.MustCompile(`(?i:\b(?:i|we)\s+(?:have\s+|had\s+)?(?:just\s+|finally\s+|recently\s+|officially\s+)*(?:switched\s+(?:jobs?\s+)?to|changed\s+jobs?\s+to|started\s+working\s+at|got\s+a\s+(?:new\s+)?job\s+at))\s+((?i:a|an|the)\s+[^,;.!?()]+)`)
	// "I retired last spring after thirty-one years as professor of marine
	// biology at the University of Tromsø": a title (and employer) that
	// ended.
	myRetiredAsRe = regexp.MustCompile(`(?i:\b(?:i|we)\s+(?:have\s+|had\s+|just\s+|finally\s+|recently\s+)*(?:retired|stepped\s+down)\b[^.;!?]*?\bas\s+(?:a\s+|an\s+|the\s+)?)([^,;!?()]+)`)
	// "I was a teacher of mathematics for 38 years", "I worked as a welder
	// until 2019": a title held for a span that is over.
	myPastJobRe = regexp.MustCompile(`(?i:\b(?:i|we)\s+(?:was|were|worked\s+as)\s+(?:a|an)\s+)([^,;!?()]+?)\s+(?i:for\s+(?:over\s+|almost\s+|nearly\s+|about\s+)?(?:\d+|[a-z]+(?:-[a-z]+)?)\s+years|until\s|till\s|before\s+(?:i|we)\s+retired|all\s+my\s+(?:working\s+)?life)`)
	// "I work at Shopify as a backend engineer": the title (works_at comes
	// from the first-person patterns)
	myWorkAsRe = regexp.MustCompile(`(?i:\b(?:i|we)\s+(?:still\s+|now\s+|currently\s+)?(?:am\s+)?work(?:s|ing)?\s+(?:at|for)\s+)[^,;!?()]+?(?i:\s+as\s+(?:a|an)\s+)([^,;!?()]+)`)
	// "I am Haruto Nakamura, 52 years old, procurement manager of Kansai
	// Precision Parts", "I'm Linh, 27, marketing executive at a cosmetics
	// company", "im aiko, 1st year pharmacy student": a title after the
	// speaker's name (and age).
	myIntroJobRe = regexp.MustCompile(`(?i:\b(?:i\s+am|i'm|i’m|im)\s+)(?:\p{Lu}\p{L}+(?:\s+\p{Lu}\p{L}+)?|\p{Ll}+),\s+(?:\d{1,3}(?i:\s+years?\s+old)?,\s+)?(?i:(?:a|an)\s+)?([^,;!?()]+)`)
	// "I work night shifts as a paramedic", "I'm freelancing as a
	// bookkeeper": a title after a few words of how.
	myWorkAsTitleRe = regexp.MustCompile(`(?i:\b(?:i|we)\s+(?:am\s+|are\s+)?(?:still\s+|now\s+|currently\s+|only\s+|mostly\s+)?(?:work(?:s|ing)?|freelanc(?:e|es|ing))\s+(?:\p{Ll}[\p{Ll}-]*\s+){0,3}?as\s+(?:a|an)\s+)([^,;!?()]+)`)
	// "starting as a staff nurse at Ridge Hospital", "I got a job as a
	// barista", "I got promoted to senior engineer", "I became a
	// paramedic": a new title (and employer).
	myNewJobRe = regexp.MustCompile(`(?i:\b(?:i|we)\s+(?:have\s+|had\s+)?(?:just\s+|finally\s+|recently\s+|officially\s+|now\s+)*(?:am\s+|was\s+|been\s+)?)` + newJobAlt + `([^,;!?()]+)`)
	// "Jo quit nursing and became a teacher": a new title after what the
	// named person did first.
	theirAndBecameRe = regexp.MustCompile(nameRe + `\s+(?:\p{Ll}[\p{L}'’-]*\s+){1,5}?and\s+(?:then\s+|finally\s+|just\s+)?(?:became|trained\s+as|retrained\s+as|qualified\s+as)\s+(?i:a|an)\s+([^,;!?()]+)`)
	// "Luis started a new job as a sous chef at Bramble", "Ana got
	// promoted to head nurse"
	theirNewJobRe = regexp.MustCompile(nameRe + `\s+(?:just\s+|finally\s+|recently\s+|officially\s+)*(?:has\s+|had\s+)?(?:is\s+|was\s+|been\s+)?` + newJobAlt + `([^,;!?()]+)`)
	// "Jonas is a cellist", "Sam's a high school history teacher", "she's a vet"
	theirJobRe = regexp.MustCompile(nameRe + `(?:\s+is|'s|’s)\s+(?:now\s+)?(?i:a|an)\s+([^,;!?()]+)`)
	// "Ana just started at St. Luke's Hospital", "Sam got hired at Northern Secondary"
	// "Arjun joined Swiggy last month and the office is closer": an
	// employer joined with no preposition, read only in a message about
	// work ("Kari joined Tinder" is none).
	theirJoinedRe = regexp.MustCompile(nameRe + `\s+(?:just\s+|finally\s+|recently\s+|has\s+|had\s+)?joined\s+(\p{Lu}[\p{L}&.'’-]*(?:\s+\p{Lu}[\p{L}&.'’-]*)*)`)
	workContextRe = regexp.MustCompile(`(?i)\b(?:job|jobs|office|offices|hired|company|salary|colleagues?|coworkers?|boss|promotion|promoted|resigned|notice|shifts?|commute|as\s+an?\s+\p{L}+)\b`)
	theirStartRe  = regexp.MustCompile(nameRe + `\s+(?:just\s+|finally\s+|recently\s+)?(?:started|starts|is\s+starting|got\s+hired|was\s+hired|(?:got|took)\s+a\s+(?:new\s+)?job|joined|works|worked|is\s+working)\s+(?:work(?:ing)?\s+)?(?:at|for|with)\s+((?:the\s+)?\p{Lu}[\p{L}&.'’-]*(?:\s+\p{Lu}[\p{L}&.'’-]*)*)`)
	// "Ana just started at St. Luke's Hospital as a pharmacist", "Nomsa
	// started at the hospital in Umhlanga as a radiographer"
	theirStartAsRe = regexp.MustCompile(nameRe + `\s+(?:just\s+|finally\s+|recently\s+|now\s+)?(?:started|starts|is\s+starting|got\s+hired|was\s+hired|got\s+a\s+job|works|worked|is\s+working)\s+(?:work(?:ing)?\s+)?(?:at|for|with)\s+([^,;!?()]+?)\s+as\s+(?i:a|an)\s+([^,;!?()]+)`)
	// "Miguel works as an electrician", "Miguel lives in Phoenix and works
	// as an electrician"
	theirWorksAsRe = regexp.MustCompile(nameRe + `\s+(?:(?:lives|lived)\s+in\s+[^,;.!?]+?\s+and\s+)?(?:now\s+|still\s+|also\s+)?works\s+as\s+(?i:a|an)\s+([^,;!?()]+)`)
	// "my nephew Oliver, who is an architect", "Luca (he's a sound
	// engineer)", "Emil, who works as an apprentice electrician": a job
	// said of a named person in passing.
	theirAsideJobRe = regexp.MustCompile(nameRe + `(?:,\s+who(?:\s+is|'s|’s|\s+works\s+as)|\s+\((?:he|she|they)(?:\s+is|\s+are|'s|’s|\s+works\s+as)|\s+\(|,\s+(?i:a|an)\s+)\s*(?:now\s+|also\s+|still\s+)?(?:(?i:a|an|the)\s+)?([^,;!?()]+)`)
	// "Dana is at Google now", "Dana's now at Google": an employer when
	// "now" says it changed (without it, "Dana is at Costco" is an errand).
	theirAtNowRe = regexp.MustCompile(nameRe + `(?:\s+is|'s|’s)\s+(now\s+|currently\s+)?at\s+` + orgAlt + `(\s+now\b|\s+these\s+days\b)?`)
	// "I'm at Stripe now", "I'm now at Stripe", "now I'm at the BBC"
	myAtNowRe = regexp.MustCompile(`(?i:\b(now,?\s+|currently,?\s+)?(?:i\s+am|i'm|i’m)\s+(now\s+)?at\s+)` + orgAlt + `(?i:(\s+now\b|\s+these\s+days\b))?`)
	// "Yui works at a bookstore in Umeda", "Ama got a job at the
	// hospital": a named person's workplace said in lower case
	// (lowerWorkplace).
	theirLowerWorkRe = regexp.MustCompile(nameRe + `\s+(?:just\s+|finally\s+|recently\s+|now\s+|still\s+)?(?:works|worked|is\s+working|started\s+working|got\s+a\s+(?:new\s+)?job)\s+(?:at|in|for|with)\s+((?i:a|an|the)\s+[^,;.!?()]+)`)
	// "Bettina left Kestrel"
	theirDroppedRe = regexp.MustCompile(nameRe + `\s+(?:(?:just|finally|has|had)\s+)*(?:dropped(?:\s+out\s+of)?|quit|gave\s+up|given\s+up|stopped|switched\s+from)\s+(?:(?:the|his|her|their)\s+)?(\p{L}[\p{L}-]*(?:\s+\p{L}[\p{L}-]*)?)`)
	theirLeftRe    = regexp.MustCompile(nameRe + `\s+(?:just\s+|finally\s+)?(?:left|quit)\s+((?:the\s+)?\p{Lu}[\p{L}&.'’-]*(?:\s+\p{Lu}[\p{L}&.'’-]*)*)`)
	// "I teach chemistry at Riverside High", "I teach year 4 at Whakarewa
	// School": a teacher there (the subject, when said, names the title).
	myTeachRe = regexp.MustCompile(`(?i:\b(?:i|we|i'm|i’m|im|i\s+am)\s+(?:(?:also|still|now|currently|mainly|mostly|actually)\s+)*(?:teach|teaching)\s+)(?:([\p{L}\d][\p{L}\d ]{0,25}?)\s+)?(?i:at)\s+` + orgAlt)
	// "Hana teaches maths at St Anne's"
	// "I teach piano", "Tamsin teaches yoga and …", "Florian, who teaches
	// physics, …": a subject taught, no school said.
	myTeachSubjectRe    = regexp.MustCompile(`(?i:\b(?:i|we)\s+(?:(?:also|still|now|currently|mainly|mostly|actually)\s+)*teach\s+)([\p{L}][\p{L}-]*(?:\s+[\p{L}][\p{L}-]*)?)` + taughtEnd)
	theirTeachSubjectRe = regexp.MustCompile(nameRe + `(?:,\s+who)?\s+(?:(?:also|still|now|currently)\s+)*teaches\s+([\p{L}][\p{L}-]*(?:\s+[\p{L}][\p{L}-]*)?)` + taughtEnd)
	theirTeachRe        = regexp.MustCompile(nameRe + `\s+(?:(?:also|still|now|currently)\s+)*teaches\s+(?:([\p{L}\d][\p{L}\d ]{0,25}?)\s+)?(?i:at)\s+` + orgAlt)
	// "… and joined a startup called Finch", after "Sam quit Google": the
	// new employer.
	andJoinedRe = regexp.MustCompile(`^\s*,?\s+(?:and\s+)?(?:then\s+|now\s+)?(?:joined|started\s+at)\s+(?:(?i:a|an)\s+(?:[\p{L}-]+\s+){0,3}?(?:called|named)\s+)?` + orgAlt)
)

// orgAlt is an organisation said with capitals ("Google", "St. Luke's
// Hospital").
const orgAlt = `((?:the\s+)?\p{Lu}[\p{L}&.'’-]*(?:\s+\p{Lu}[\p{L}&.'’-]*)*)`

// newJobAlt is what comes before the title of a new job.
const newJobAlt = `(?i:(?:start(?:ed|ing|s)?|began|begin(?:ning|s)?|got\s+hired|hired|got\s+(?:a|the)\s+(?:new\s+)?job|took\s+(?:a|the)\s+(?:new\s+)?job|accepted\s+(?:a|an|the)\s+(?:new\s+)?(?:job|position|offer|role)|(?:got\s+|am\s+|is\s+|was\s+|been\s+)?(?:re)?trained|qualified|became|become|becoming)\s+(?:(?:a|my|her|his|their)\s+new\s+(?:job|position|role)\s+|work(?:ing)?\s+|(?:back\s+)?)as\s+(?:a\s+|an\s+)?|(?:became|become|becoming)\s+(?:a|an)\s+|(?:got\s+|was\s+|been\s+|am\s+|is\s+|being\s+)?promoted\s+to\s+(?:a\s+|an\s+)?)`

// splitJob cuts "backend dev at Hollis Analytics so my budget is ok" into
// the title and the employer.
func splitJob(rest string) (title, org string) {
	rest = strings.TrimRight(strings.TrimSpace(rest), ".!?…")
	lower := strings.ToLower(rest)
	for _, b := range []string{" so ", " and ", " but ", " because ", " who ", " which ", " in ", " now", " lol", " tbh", " btw", " today", " tonight", " tomorrow", " yesterday", " this ", " next ", " last ", " on ", " from ", " there", " here", " he ", " she ", " they ", " i ", " we ", " these days", " nowadays", " at the moment", " right now", " since ", " living", " based"} {
		if i := strings.Index(lower, b); i >= 0 {
			rest, lower = rest[:i], lower[:i]
		}
	}
	title = rest
	for _, p := range []string{" at ", " for ", " with "} {
		if i := strings.Index(lower, p); i >= 0 {
			title, org = rest[:i], rest[i+len(p):]
			break
		}
	}
	return strings.TrimSpace(title), strings.TrimSpace(org)
}

// ageTitleRe is an age said before a title: "34 year old", "34-year-old".
var ageTitleRe = regexp.MustCompile(`^(?i:(?:a|an)\s+)?(\d{1,3})[- ](?i:years?|yrs?)[- ](?i:old)\s+`)

// ofToAt reads "manager of Kansai Precision Parts" as "manager at …":
// an employer after "of" when it is said with a capital.
func ofToAt(s string) string {
	if i := strings.Index(s, " of "); i > 0 && startsUpper(strings.TrimSpace(s[i+4:])) {
		return s[:i] + " at " + s[i+4:]
	}
	return s
}

// introJob reads a title (and employer) after the speaker's name and
// age, when the title names an occupation.
func introJob(clause string) (title, org string, ok bool) {
	m := myIntroJobRe.FindStringSubmatch(clause)
	if m == nil {
		return "", "", false
	}
	title, org = splitJob(ofToAt(m[1]))
	return title, org, jobTitle(title) != ""
}

// jobTitle returns the title if its last word is an occupation ("junior data
// analyst"), else "".
func jobTitle(t string) string {
	t = strings.TrimSpace(t)
	words := strings.Fields(strings.ToLower(t))
	if len(words) == 0 || len(words) > 6 {
		return ""
	}
	// "professor of marine biology", "head of people": the occupation (or
	// "head") comes before "of".
	if i := slices.Index(words, "of"); i > 0 && i < len(words)-1 && (isOccupation(words[i-1]) || words[i-1] == "head") {
		return t
	}
	if len(words) > 5 || !isOccupation(words[len(words)-1]) {
		return ""
	}
	return t
}

// joinTitle is the occupation a new employer was joined as, or "".
func joinTitle(rest string) string {
	title, _ := splitJob(rest)
	return jobTitle(title)
}

// numberRe is a number said after a title: "electrician 30 years".
var numberRe = regexp.MustCompile(`\s\d`)

// beforeNumber is s up to a number it holds.
func beforeNumber(s string) string {
	if loc := numberRe.FindStringIndex(s); loc != nil {
		return s[:loc[0]]
	}
	return s
}

// ownMatch is re's match in a clause about the speaker, or nil: the
// patterns of the speaker's own jobs run only on such clauses.
func ownMatch(own bool, re *regexp.Regexp, clause string) []string {
	if !own {
		return nil
	}
	return re.FindStringSubmatch(clause)
}

// beforeBreak is an employer phrase up to the words that end it ("a fintech
// startup last month" → "a fintech startup").
func beforeBreak(s string) string {
	phrase, _ := splitJob(s)
	return phrase
}

// saidPhrase is a phrase as said up to the next clause ("a bank in Osaka"
// of "a bank in Osaka so he writes emails all day").
func saidPhrase(s string) string {
	lower := strings.ToLower(s)
	for _, b := range []string{" so ", " and ", " but ", " because ", " who ", " which ", " lol", " tbh", " btw"} {
		if i := strings.Index(lower, b); i >= 0 {
			s, lower = s[:i], lower[:i]
		}
	}
	return strings.TrimSpace(s)
}

// workplaces are the nouns that end an employer said in lower case
// (data/workplaces.txt).
var workplaces = listSet(readList("workplaces.txt"))

// lowerWorkplace returns the employer of "the county extension office" or
// "a cosmetics company" (at most four words after the article, ending in a
// workplace noun), or "".
func lowerWorkplace(org string) string {
	words := strings.Fields(strings.TrimRight(org, ".,;:!?"))
	// "an accounting office part-time", "the library now"
	for len(words) > 2 {
		last := strings.ToLower(words[len(words)-1])
		if !adverbs[last] && last != "part-time" && last != "full-time" {
			break
		}
		words = words[:len(words)-1]
	}
	if len(words) < 2 || len(words) > 5 {
		return ""
	}
	switch strings.ToLower(words[0]) {
	case "the", "a", "an":
	default:
		return ""
	}
	for _, w := range words[1:] {
		if lowerWordRe.FindString(w) != w || danglingWords[w] {
			return ""
		}
	}
	if !workplaces[words[len(words)-1]] {
		return ""
	}
	return strings.Join(words[1:], " ")
}

// bareTitle reports whether a title said without an article is an
// occupation of at most three words with no function word among them ("chef",
// "dental hygienist"; not "tired of my manager").
func bareTitle(t string) bool {
	words := strings.Fields(strings.ToLower(t))
	// "third year student of veterinary" names its field in five words.
	limit := 3
	if studentField(t) != "" {
		limit = 5
	}
	if len(words) == 0 || len(words) > limit || jobTitle(t) == "" {
		return false
	}
	if studyVerbs[words[0]] {
		return false // "doing physio" is a field studied, not a title
	}
	for i, w := range words {
		// The "of" of "student of veterinary" is part of the title.
		if (danglingWords[w] || stopNames[w]) && !(limit > 3 && w == "of" && i > 0 && words[i-1] == "student") {
			return false
		}
	}
	return true
}

// studyVerbs open a phrase of what someone does or studies, never a title.
var studyVerbs = map[string]bool{"doing": true, "studying": true, "taking": true, "working": true, "learning": true, "reading": true, "majoring": true}

// isOccupation reports whether w names a profession: a word of
// occupations.txt or one ending in one of its suffixes (cardiologist).
func isOccupation(w string) bool {
	if occupations[w] {
		return true
	}
	for _, suf := range occupationSuffixes {
		if strings.HasSuffix(w, suf) && len(w) > len(suf)+2 {
			return true
		}
	}
	return false
}

func orgName(o string) string {
	o = strings.TrimSpace(strings.TrimRight(o, ".,;!'’"))
	o = capitalRun(o)
	o = strings.TrimSuffix(strings.TrimSuffix(o, "'s"), "’s")
	return strings.TrimPrefix(strings.TrimPrefix(o, "the "), "The ")
}

// jobFacts finds job titles and employers: the speaker's ("I'm a nurse at
// St. Mary's") and named people's ("Sam's a history teacher", "Ana just
// started at St. Luke's Hospital", "Bettina left Kestrel", which ends her
// works_at).
func (c *collector) jobFacts(subject, subjectType, clause string, ref time.Time, own bool) []lore.ExtractedFact {
	var out []lore.ExtractedFact
	clause = byTradeRe.ReplaceAllString(clause, "") // "an electrician by trade"
	// job states a title (and employer) and reports whether the title was
	// one.
	job := func(s, sType, title, org string) bool {
		if m := ageTitleRe.FindStringSubmatch(title); m != nil {
			// "a 34 year old architect": an age, then the title.
			title = title[len(m[0]):]
			out = append(out, lore.ExtractedFact{
				Subject: s, SubjectType: sType, Predicate: "age", Object: m[1],
				Text: factText("%s is %s years old", s, m[1]), ValidAt: timePtr(ref), Confidence: 0.85,
			})
		}
		if title = jobTitle(title); title == "" {
			return false
		}
		if rest, ok := cutRetired(title); ok {
			// "Brigitte, a retired pharmacist": the job has ended.
			f := ended(s, sType, "works_as", "works as", strings.ToLower(rest), false, "", ref)
			f.Text = factText("%s is %s", s, withArticle(title))
			out = append(out, f)
			return true
		}
		out = append(out, lore.ExtractedFact{
			Subject: s, SubjectType: sType, Predicate: "works_as", Object: strings.ToLower(title),
			Text: factText("%s works as %s", s, withArticle(title)), ValidAt: timePtr(ref), Confidence: 0.8,
		})
		if field := studentField(title); field != "" {
			// "a 2nd year geology student" studies geology.
			out = append(out, lore.ExtractedFact{
				Subject: s, SubjectType: sType, Predicate: "major", Object: field,
				Text: factText("%s studies %s", s, field), ValidAt: timePtr(ref), Confidence: 0.75,
			})
		}
		said := org
		if org = orgName(org); org != "" && startsUpper(org) {
			org = c.entity(c.fullName(org), "organization")
			// The employer's text names the job too: "user works as a
			// librarian at Carver Public Library" answers "What's my job?".
			pred, text := "works_at", factText("%s works as %s at %s", s, withArticle(title), org)
			if lt := strings.ToLower(title); strings.HasSuffix(lt, "student") || strings.Contains(lt, " student of ") || strings.Contains(lt, " student in ") {
				// "a nursing student at the University of Ghana" studies there.
				pred, text = "studies_at", factText("%s is %s at %s", s, withArticle(title), org)
			}
			out = append(out, lore.ExtractedFact{
				Subject: s, SubjectType: sType, Predicate: pred, Object: org, ObjectIsEntity: true, ObjectType: "organization",
				Text: text, ValidAt: timePtr(ref), Confidence: 0.8,
			})
		} else if school := lowerAcronym(org); school != "" && strings.HasSuffix(strings.ToLower(title), "student") {
			// "a 2nd year chem student at ntu": a school said as a
			// lower-case acronym.
			out = append(out, lore.ExtractedFact{
				Subject: s, SubjectType: sType, Predicate: "studies_at", Object: school,
				Text: factText("%s is %s at %s", s, withArticle(title), school), ValidAt: timePtr(ref), Confidence: 0.7,
			})
		} else if place := lowerWorkplace(said); place != "" {
			// "agronomist with the county extension office": an employer
			// said in lower case, kept as said.
			out = append(out, lore.ExtractedFact{
				Subject: s, SubjectType: sType, Predicate: "works_at", Object: place,
				Text: factText("%s works as %s at the %s", s, withArticle(title), place), ValidAt: timePtr(ref), Confidence: 0.7,
			})
		}
		return true
	}
	if m := ownMatch(own, myRetiredAsRe, clause); m != nil {
		if title, org := splitJob(m[1]); jobTitle(title) != "" {
			f := ended(subject, subjectType, "works_as", "works as", strings.ToLower(title), false, "", ref)
			f.Text = c.said
			out = append(out, f)
			if org = orgName(org); org != "" && startsUpper(org) {
				out = append(out, ended(subject, subjectType, "works_at", "works at", c.entity(c.fullName(org), "organization"), true, "organization", ref))
			}
		}
	}
	if m := ownMatch(own, myPastJobRe, clause); m != nil {
		if title := jobTitle(m[1]); title != "" {
			f := ended(subject, subjectType, "works_as", "works as", strings.ToLower(title), false, "", ref)
			f.Text = factText("%s was %s", subject, withArticle(title))
			out = append(out, f)
		}
	}
	if m := ownMatch(own, mySwitchedToRe, clause); m != nil {
		if place := lowerWorkplace(beforeBreak(m[1])); place != "" {
			out = append(out, lore.ExtractedFact{
				Subject: subject, SubjectType: subjectType, Predicate: "works_at", Object: place,
				Text: factText("%s works at the %s", subject, place), ValidAt: timePtr(ref), Confidence: 0.7,
			})
		}
	}
	if own {
		// The first pattern that gives a title wins; one that matches
		// without a title ("I am Rosa, I teach fourth grade at …") lets
		// the next try.
		ownJob := func(rest string) bool {
			title, org := splitJob(rest)
			return job(subject, subjectType, title, org)
		}
		tries := []func() bool{
			func() bool {
				m := offeredMeRe.FindStringSubmatch(clause)
				if m == nil || unasserted(clause, m[0]) {
					return false
				}
				if title, _ := splitJob(m[2]); jobTitle(title) != "" {
					return job(subject, subjectType, title, m[1])
				}
				org := orgName(m[1])
				if org == "" || !startsUpper(org) {
					return false
				}
				org = c.entity(c.fullName(org), "organization")
				out = append(out, lore.ExtractedFact{
					Subject: subject, SubjectType: subjectType, Predicate: "works_at", Object: org, ObjectIsEntity: true, ObjectType: "organization",
					Text: factText("%s works at %s", subject, org), ValidAt: timePtr(ref), Confidence: 0.7,
				})
				return false
			},
			func() bool {
				m := myJoinAsRe.FindStringSubmatch(clause)
				return m != nil && joinTitle(m[2]) != "" && job(subject, subjectType, joinTitle(m[2]), m[1])
			},
			func() bool {
				m := myJobRe.FindStringSubmatch(clause)
				return m != nil && ownJob(m[1])
			},
			func() bool {
				m := myNewJobRe.FindStringSubmatch(clause)
				return m != nil && ownJob(m[1])
			},
			func() bool {
				m := myWorkAsRe.FindStringSubmatch(clause)
				if m == nil {
					return false
				}
				title, _ := splitJob(m[1])
				return job(subject, subjectType, title, "")
			},
			func() bool {
				m := myAsJobRe.FindStringSubmatch(clause)
				if m == nil {
					m = myJobAsRe.FindStringSubmatch(clause)
				}
				return m != nil && bareTitle(m[1]) && job(subject, subjectType, m[1], "")
			},
			func() bool {
				title, org, ok := introJob(clause)
				return ok && job(subject, subjectType, title, org)
			},
			func() bool {
				m := myWorkAsTitleRe.FindStringSubmatch(clause)
				return m != nil && ownJob(m[1])
			},
			func() bool {
				// "No, I am not in the classroom anymore, I am the vice
				// principal now!": each "I am" in turn.
				for _, m := range myBareJobRe.FindAllStringSubmatch(clause, -1) {
					title, org := splitJob(beforeNumber(m[1]))
					// "I'm the vice principal now", "I'm now the head chef
					// at Nopa": a title said with "the" is still the
					// speaker's job.
					title = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(title, "the "), "The "))
					if bareTitle(title) && job(subject, subjectType, title, org) {
						return true
					}
				}
				return false
			},
			func() bool {
				m := myTeachRe.FindStringSubmatch(clause)
				return m != nil && job(subject, subjectType, teacherTitle(m[1]), m[2])
			},
			func() bool {
				m := myTeachSubjectRe.FindStringSubmatch(clause)
				return m != nil && teachesSubject(m[1]) && job(subject, subjectType, teacherTitle(m[1]), "")
			},
		}
		for _, try := range tries {
			if try() {
				break
			}
		}
	}
	study := func(s, sType, field, school string) {
		if kindOf(field) != "field" {
			return
		}
		field = strings.ToLower(strings.TrimSpace(field))
		out = append(out, lore.ExtractedFact{
			Subject: s, SubjectType: sType, Predicate: "major", Object: field,
			Text: factText("%s studies %s", s, field), ValidAt: timePtr(ref), Confidence: 0.75,
		})
		if school = orgName(school); startsUpper(school) {
			school = c.entity(c.fullName(school), "organization")
		} else {
			school = lowerAcronym(school)
		}
		if school != "" {
			out = append(out, lore.ExtractedFact{
				Subject: s, SubjectType: sType, Predicate: "studies_at", Object: school, ObjectIsEntity: startsUpper(school) && strings.ToUpper(school) != school, ObjectType: "organization",
				Text: factText("%s studies %s at %s", s, field, school), ValidAt: timePtr(ref), Confidence: 0.7,
			})
		}
	}
	if m := ownMatch(own, myStudyingRe, clause); m != nil {
		study(subject, subjectType, m[1], m[2])
	}
	for _, m := range theirStudyingRe.FindAllStringSubmatch(clause, -1) {
		if !isStopName(m[1]) && !isPronoun(m[1]) && c.typeOf(m[1]) != "place" {
			study(c.entity(dropOpener(m[1]), "person"), "person", m[2], "")
		}
	}
	if m := firstDaysAtRe.FindStringSubmatch(clause); m != nil {
		if org := orgName(m[2]); org != "" && startsUpper(org) && !isTemporalWord(lore.NormalizeName(org)) {
			org = c.entity(c.fullName(org), "organization")
			pred, text := "works_at", factText("%s works at %s", subject, org)
			if m[1] == "" && studyWordsRe.MatchString(c.message) {
				pred, text = "studies_at", factText("%s studies at %s", subject, org)
			}
			out = append(out, lore.ExtractedFact{
				Subject: subject, SubjectType: subjectType, Predicate: pred, Object: org, ObjectIsEntity: true, ObjectType: "organization",
				Text: text, ValidAt: timePtr(ref), Confidence: 0.75,
			})
		}
	}
	business := func(s, sType, what string) {
		what = strings.ToLower(strings.TrimSpace(what))
		out = append(out, lore.ExtractedFact{
			Subject: s, SubjectType: sType, Predicate: "works_as", Object: "runs " + withArticle(what),
			Text: factText("%s runs %s", s, withArticle(what)), ValidAt: timePtr(ref), Confidence: 0.7,
		})
	}
	if m := ownMatch(own, myBusinessRe, clause); m != nil && !unasserted(clause, m[0]) {
		business(subject, subjectType, m[1])
	}
	for _, m := range theirBusinessRe.FindAllStringSubmatch(clause, -1) {
		if !isStopName(m[1]) && !isPronoun(m[1]) && c.typeOf(m[1]) != "place" && c.typeOf(m[1]) != "organization" && !unasserted(clause, m[0]) {
			business(c.entity(dropOpener(m[1]), "person"), "person", m[2])
		}
	}
	// A note with no subject is the speaker's own, though no "I" says so.
	if m := titleAtFragmentRe.FindStringSubmatch(clause); m != nil && bareTitle(m[1]) {
		job(subject, subjectType, m[1], m[2])
	}
	for _, m := range theirTeachRe.FindAllStringSubmatch(clause, -1) {
		if !isStopName(m[1]) && !isPronoun(m[1]) {
			job(c.entity(m[1], "person"), "person", teacherTitle(m[2]), m[3])
		}
	}
	if theirTeachRe.FindStringIndex(clause) == nil {
		for _, m := range theirTeachSubjectRe.FindAllStringSubmatch(clause, -1) {
			if !isStopName(m[1]) && !isPronoun(m[1]) && teachesSubject(m[2]) {
				job(c.entity(m[1], "person"), "person", teacherTitle(m[2]), "")
			}
		}
	}
	for _, m := range theirBareJobRe.FindAllStringSubmatch(clause, -1) {
		if isStopName(m[1]) || isPronoun(m[1]) {
			continue
		}
		if title, org := splitJob(m[2]); bareTitle(title) {
			job(c.entity(m[1], "person"), "person", title, org)
		}
	}
	for _, m := range theirJobRe.FindAllStringSubmatch(clause, -1) {
		if isStopName(m[1]) || isPronoun(m[1]) {
			continue
		}
		if title, org := splitJob(m[2]); jobTitle(title) != "" {
			job(c.entity(m[1], "person"), "person", title, org)
		}
	}
	for _, m := range theirAsideJobRe.FindAllStringSubmatch(clause, -1) {
		if isStopName(m[1]) || isPronoun(m[1]) {
			continue
		}
		if title, org := splitJob(m[2]); jobTitle(title) != "" {
			job(c.entity(m[1], "person"), "person", title, org)
		}
	}
	for _, m := range theirAndBecameRe.FindAllStringSubmatch(clause, -1) {
		if !isStopName(m[1]) && !isPronoun(m[1]) && c.typeOf(m[1]) != "place" {
			if title, org := splitJob(m[2]); jobTitle(title) != "" {
				job(c.entity(dropOpener(m[1]), "person"), "person", title, org)
			}
		}
	}
	for _, m := range theirStartAsRe.FindAllStringSubmatch(clause, -1) {
		if isStopName(m[1]) || isPronoun(m[1]) {
			continue
		}
		title, _ := splitJob(m[3])
		org := orgName(m[2])
		if !startsUpper(org) {
			org = strings.TrimSpace(m[2]) // "the hospital in Umhlanga"
		}
		if jobTitle(title) == "" || len(strings.Fields(org)) > 6 {
			continue
		}
		s := c.entity(m[1], "person")
		isOrg := startsUpper(org)
		if isOrg {
			org = c.entity(c.fullName(org), "organization")
		}
		text := factText("%s works as %s at %s", s, withArticle(title), org)
		out = append(out, lore.ExtractedFact{
			Subject: s, SubjectType: "person", Predicate: "works_as", Object: strings.ToLower(title),
			Text: text, ValidAt: timePtr(ref), Confidence: 0.8,
		}, lore.ExtractedFact{
			Subject: s, SubjectType: "person", Predicate: "works_at", Object: org, ObjectIsEntity: isOrg, ObjectType: map[bool]string{true: "organization"}[isOrg],
			Text: text, ValidAt: timePtr(ref), Confidence: 0.8,
		})
	}
	for _, m := range theirNewJobRe.FindAllStringSubmatch(clause, -1) {
		if isStopName(m[1]) || isPronoun(m[1]) {
			continue
		}
		if title, org := splitJob(m[2]); jobTitle(title) != "" {
			job(c.entity(m[1], "person"), "person", title, org)
		}
	}
	for _, m := range theirWorksAsRe.FindAllStringSubmatch(clause, -1) {
		if isStopName(m[1]) || isPronoun(m[1]) {
			continue
		}
		if title, org := splitJob(m[2]); jobTitle(title) != "" {
			job(c.entity(m[1], "person"), "person", title, org)
		}
	}
	var joined [][]string
	if workContextRe.MatchString(c.message) {
		joined = theirJoinedRe.FindAllStringSubmatch(clause, -1)
	}
	for _, m := range append(theirStartRe.FindAllStringSubmatch(clause, -1), joined...) {
		if isStopName(m[1]) || isPronoun(m[1]) {
			continue
		}
		s := c.entity(m[1], "person")
		org := c.entity(c.fullName(orgName(m[2])), "organization")
		out = append(out, lore.ExtractedFact{
			Subject: s, SubjectType: "person", Predicate: "works_at", Object: org, ObjectIsEntity: true, ObjectType: "organization",
			Text: factText("%s works at %s", s, org), ValidAt: timePtr(ref), Confidence: 0.75,
		})
	}
	for _, m := range theirLowerWorkRe.FindAllStringSubmatch(clause, -1) {
		if isStopName(m[1]) || isPronoun(m[1]) {
			continue
		}
		if place := lowerWorkplace(beforeBreak(m[2])); place != "" {
			s := c.entity(dropOpener(m[1]), "person")
			out = append(out, lore.ExtractedFact{
				Subject: s, SubjectType: "person", Predicate: "works_at", Object: place,
				Text: factText("%s works at %s", s, saidPhrase(m[2])), ValidAt: timePtr(ref), Confidence: 0.7,
			})
		}
	}
	// "Dana left last week, she's at Google now": the text is what was
	// said, since what changed ("left") is part of the news.
	atNow := func(s, sType, org string) {
		org = orgName(org)
		if t := c.typeOf(org); t == "place" || t == "person" || isTemporalWord(strings.ToLower(org)) {
			return
		}
		org = c.entity(c.fullName(org), "organization")
		text := c.said
		if !strings.Contains(text, org) {
			text = factText("%s works at %s", s, org)
		}
		out = append(out, lore.ExtractedFact{
			Subject: s, SubjectType: sType, Predicate: "works_at", Object: org, ObjectIsEntity: true, ObjectType: "organization",
			Text: text, ValidAt: timePtr(ref), Confidence: 0.7,
		})
	}
	if own {
		if m := myAtNowRe.FindStringSubmatch(clause); m != nil && m[1]+m[2]+m[4] != "" {
			atNow(subject, subjectType, m[3])
		}
	}
	for _, m := range theirAtNowRe.FindAllStringSubmatch(clause, -1) {
		if isStopName(m[1]) || isPronoun(m[1]) || m[2]+m[4] == "" {
			continue
		}
		atNow(c.entity(m[1], "person"), "person", m[3])
	}
	// "Tomás dropped engineering", "Kai gave up the violin": what a named
	// person was said to study, do or play ends.
	for _, m := range theirDroppedRe.FindAllStringSubmatch(clause, -1) {
		if isStopName(m[1]) || isPronoun(m[1]) {
			continue
		}
		s := c.entity(dropOpener(m[1]), "person")
		for _, p := range []struct{ pred, said string }{{"major", "studies"}, {"does", "does"}, {"plays", "plays"}} {
			words := strings.Fields(m[2])
			for n := len(words); n > 0; n-- {
				if held, ok := c.prior(s, p.pred, strings.Join(words[:n], " ")); ok {
					out = append(out, ended(s, "person", p.pred, p.said, held, false, "", ref))
					break
				}
			}
		}
	}
	for _, loc := range theirLeftRe.FindAllStringSubmatchIndex(clause, -1) {
		name, left := clause[loc[2]:loc[3]], clause[loc[4]:loc[5]]
		if isStopName(name) || isPronoun(name) {
			continue
		}
		s := c.entity(name, "person")
		org := c.entity(c.fullName(orgName(left)), "organization")
		out = append(out, ended(s, "person", "works_at", "works at", org, true, "organization", ref))
		if m := andJoinedRe.FindStringSubmatch(clause[loc[1]:]); m != nil && !isTemporalWord(lore.NormalizeName(m[1])) {
			next := c.entity(c.fullName(orgName(m[1])), "organization")
			out = append(out, lore.ExtractedFact{
				Subject: s, SubjectType: "person", Predicate: "works_at", Object: next, ObjectIsEntity: true, ObjectType: "organization",
				Text: factText("%s works at %s", s, next), ValidAt: timePtr(ref), Confidence: 0.75,
			})
		}
	}
	return out
}

// taughtEnd is what may end a subject taught: the clause's end or a word
// that starts something else ("teaches yoga and eats like a bird").
const taughtEnd = `(?:\s*$|\s*[,.;!?)]|\s+(?i:and|but|at|in|to|for|online|part-time|full-time|now|these)\b)`

// teachesSubject reports whether the words after "teach" name a subject:
// not whom ("kids"), not a pronoun ("teaches me"), and no more than two
// words.
func teachesSubject(s string) bool {
	words := strings.Fields(strings.ToLower(s))
	if len(words) == 0 || isPronoun(words[0]) || teachWhom[words[0]] || danglingWords[words[0]] || adverbs[words[0]] {
		return false
	}
	return !slices.ContainsFunc(words, isPronoun)
}

// teacherTitle is the title of someone who teaches subject: "chemistry
// teacher", "year 4 teacher", or "teacher" when the subject says whom
// ("kids", "them") rather than what.
func teacherTitle(subject string) string {
	subject = strings.ToLower(strings.TrimSpace(subject))
	if subject == "" || isPronoun(subject) || teachWhom[strings.Fields(subject)[0]] {
		return "teacher"
	}
	return subject + " teacher"
}

// teachWhom are words after "teach" that say whom, not what
// (data/teach_whom.txt).
var teachWhom = listSet(readList("teach_whom.txt"))

// capitalRun keeps, of an organisation said with a capital, its
// capitalised words and the small words between them ("Ridge Hospital next
// week" → "Ridge Hospital", "University of Ghana"); other text is returned
// as it is.
func capitalRun(o string) string {
	words := strings.Fields(o)
	start := 0
	if len(words) > 1 && (words[0] == "the" || words[0] == "The") {
		start = 1
	}
	if len(words) == 0 || !startsUpper(words[start]) {
		return o
	}
	end := start + 1
	for end < len(words) {
		w := words[end]
		if startsUpper(w) || (w[0] >= '0' && w[0] <= '9') || w == "&" {
			end++
			continue
		}
		if (w == "of" || w == "and" || w == "for" || w == "de") && end+1 < len(words) && startsUpper(words[end+1]) {
			end += 2
			continue
		}
		break
	}
	return strings.Join(words[:end], " ")
}

// lowerAcronym is a name written as a lower-case acronym ("ntu", "ucla"):
// one word of two to five letters that is no English word, upper-cased; or
// "".
func lowerAcronym(w string) string {
	w = strings.TrimSpace(w)
	if n := len(w); n < 2 || n > 5 || englishWords[w] || studentQualifiers[w] || isTemporalWord(w) {
		return ""
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return ""
		}
	}
	return strings.ToUpper(w)
}

func withArticle(title string) string {
	if title == "" {
		return ""
	}
	if strings.ContainsRune("aeiouAEIOU", rune(title[0])) {
		return "an " + title
	}
	return "a " + title
}

// cutRetired strips the word that says a title is no longer held
// ("retired pharmacist" → "pharmacist").
func cutRetired(title string) (string, bool) {
	for _, p := range []string{"retired ", "former ", "ex-", "ex "} {
		if rest, ok := strings.CutPrefix(strings.ToLower(title), p); ok && rest != "" {
			return rest, true
		}
	}
	return title, false
}

// studentField returns the field of a student title ("2nd year geology
// student" → "geology"), or "" when the title names none ("a PhD
// student", "an exchange student").
func studentField(title string) string {
	// "a second year student of economics" studies economics.
	for _, sep := range []string{" student of ", " student in "} {
		if _, field, ok := strings.Cut(strings.ToLower(title), sep); ok {
			return field
		}
	}
	ws := strings.Fields(strings.ToLower(title))
	if len(ws) < 2 || ws[len(ws)-1] != "student" {
		return ""
	}
	var field []string
	for _, w := range ws[:len(ws)-1] {
		if !studentQualifiers[strings.Trim(w, "-,")] {
			field = append(field, w)
		}
	}
	return strings.Join(field, " ")
}

// studentQualifiers are the words of a student title that say what kind of
// student, not what they study.
var studentQualifiers = map[string]bool{"a": true, "an": true, "the": true, "year": true, "yr": true, "first": true,
	"second": true, "third": true, "fourth": true, "final": true, "last": true, "1st": true, "2nd": true, "3rd": true,
	"4th": true, "first-year": true, "second-year": true, "third-year": true, "final-year": true, "freshman": true,
	"sophomore": true, "junior": true, "senior": true, "grad": true, "graduate": true, "postgrad": true,
	"postgraduate": true, "undergrad": true, "undergraduate": true, "phd": true, "doctoral": true, "masters": true,
	"master's": true, "exchange": true, "international": true, "mature": true, "full-time": true, "part-time": true,
	"full": true, "part": true, "time": true, "high": true, "school": true, "college": true, "university": true,
	"uni": true, "former": true, "ex": true, "current": true, "new": true}
