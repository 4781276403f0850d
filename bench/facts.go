package bench

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// FactKinds are the kinds of relational question, in report order: the
// user's own facts, one and two relation hops ("my sister", "my sister's
// husband"), entities by name, updated and ended values, negations, and
// questions as of a past moment.
var FactKinds = []string{"direct", "hop1", "hop2", "entity", "update", "ending", "negation", "asof"}

// FactSet is a relational question set (fixtures/relational/*.json, read by
// `lore bench facts`): small users, each with dated sessions and questions
// about them.
type FactSet struct {
	Description string     `json:"description"`
	Users       []FactUser `json:"users"`
}

// FactUser is one user: ingested into a scope of its own before its
// questions are asked.
type FactUser struct {
	ID        string         `json:"id"`
	Sessions  []FactSession  `json:"sessions"`
	Questions []FactQuestion `json:"questions"`
}

// FactSession is one dated conversation, ingested as one request.
type FactSession struct {
	Time     time.Time     `json:"time"`
	Messages []FactMessage `json:"messages"`
}

// FactMessage is one message of a session.
type FactMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	Name    string `json:"name,omitempty"` // the speaker's name; none for the user
}

// FactQuestion is one question with the answer strings that pass it.
type FactQuestion struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"` // one of FactKinds
	Query string `json:"query"`
	// Expected are answer strings; any one, as a case-insensitive
	// substring of a result's text, answers the question.
	Expected []string `json:"expected"`
	// Stale are outdated or wrong values: a result holding one and no
	// expected string fails the question if it ranks above the answer.
	Stale []string `json:"stale,omitempty"`
	// QueryTime is when the question is asked ("now"; for asof questions
	// the past moment asked about). Nil: the last session's time plus a day.
	QueryTime *time.Time `json:"query_time,omitempty"`
}

// askedAt returns when q is asked for user u.
func (u FactUser) askedAt(q FactQuestion) time.Time {
	if q.QueryTime != nil {
		return *q.QueryTime
	}
	var last time.Time
	for _, s := range u.Sessions {
		if s.Time.After(last) {
			last = s.Time
		}
	}
	return last.Add(24 * time.Hour)
}

// LoadFactSet reads a relational question set (gzip by suffix) and checks
// it; see ParseFactSet.
func LoadFactSet(path string) (*FactSet, error) {
	data, err := readMaybeGzip(path)
	if err != nil {
		return nil, fmt.Errorf("facts: %w", err)
	}
	return ParseFactSet(data)
}

// ParseFactSet decodes a relational question set and checks what the
// runner relies on: unique user and question ids, dated sessions with
// messages, a known kind, a query and at least one non-blank expected
// string per question. Unknown fields are allowed (notes for readers).
func ParseFactSet(data []byte) (*FactSet, error) {
	var set FactSet
	if err := json.Unmarshal(data, &set); err != nil {
		return nil, fmt.Errorf("facts: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	if len(set.Users) == 0 {
		return nil, fmt.Errorf("facts: no users")
	}
	kinds := map[string]bool{}
	for _, k := range FactKinds {
		kinds[k] = true
	}
	users, questions := map[string]bool{}, map[string]bool{}
	for ui, u := range set.Users {
		if strings.TrimSpace(u.ID) == "" {
			return nil, fmt.Errorf("facts: users[%d] has no id", ui)
		}
		if users[u.ID] {
			return nil, fmt.Errorf("facts: user %q appears twice", u.ID)
		}
		users[u.ID] = true
		if len(u.Sessions) == 0 {
			return nil, fmt.Errorf("facts: user %s has no sessions", u.ID)
		}
		for si, s := range u.Sessions {
			if s.Time.IsZero() {
				return nil, fmt.Errorf("facts: user %s sessions[%d] has no time", u.ID, si)
			}
			if len(s.Messages) == 0 {
				return nil, fmt.Errorf("facts: user %s sessions[%d] has no messages", u.ID, si)
			}
		}
		for qi, q := range u.Questions {
			where := fmt.Sprintf("facts: user %s questions[%d] (%s)", u.ID, qi, q.ID)
			switch {
			case q.ID == "":
				return nil, fmt.Errorf("%s has no id", where)
			case questions[q.ID]:
				return nil, fmt.Errorf("%s: the id appears twice", where)
			case !kinds[q.Kind]:
				return nil, fmt.Errorf("%s: kind %q is not one of %s", where, q.Kind, strings.Join(FactKinds, ", "))
			case strings.TrimSpace(q.Query) == "":
				return nil, fmt.Errorf("%s has no query", where)
			case !hasNonBlank(q.Expected):
				return nil, fmt.Errorf("%s has no expected answer", where)
			}
			questions[q.ID] = true
		}
	}
	return &set, nil
}

func hasNonBlank(ss []string) bool {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return true
		}
	}
	return false
}

// passAt reports whether a ranked list of result texts passes at k: some
// result among the first k holds an expected string, and no result ranked
// above it holds a stale string but no expected one. Matching is a
// case-insensitive substring test; blank strings match nothing.
func passAt(texts, expected, stale []string, k int) bool {
	for i := 0; i < k && i < len(texts); i++ {
		if containsAny(texts[i], expected) {
			return true
		}
		if containsAny(texts[i], stale) {
			return false
		}
	}
	return false
}

// containsAny reports whether text holds one of the non-blank needles,
// ignoring case.
func containsAny(text string, needles []string) bool {
	lower := strings.ToLower(text)
	for _, n := range needles {
		if n = strings.TrimSpace(n); n != "" && strings.Contains(lower, strings.ToLower(n)) {
			return true
		}
	}
	return false
}
