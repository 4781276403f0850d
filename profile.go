package lore

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// ProfileSource says how Lore learned a profile entry.
type ProfileSource string

// Profile sources. An explicit entry is one the user stated ("I'm
// vegetarian") or set themselves; an inferred one is Lore's reading of
// weaker cues (what they ask about). Explicit always wins.
const (
	ProfileExplicit ProfileSource = "explicit"
	ProfileInferred ProfileSource = "inferred"
)

// ProfileFloor is the least confidence an inferred entry needs to be
// stored: a weaker inference is never written.
const ProfileFloor = 0.5

// Bounds of a profile entry.
const (
	MaxProfileValue    = 200 // bytes of a value
	MaxProfileEvidence = 16  // evidence references kept per entry, newest last
	// MaxSealedProfileValue bounds the stored form of a value the
	// encryption layer sealed (an entry with a ValueKey): a sealed
	// MaxProfileValue-byte value takes 315 bytes (crypt.Prefix, then
	// base64 of nonce, text and tag). The layer checks MaxProfileValue on
	// the text before sealing.
	MaxSealedProfileValue = 512
)

// QueryEvidencePrefix starts an evidence reference that is a query's hash,
// not a memory id: the query itself is never stored.
const QueryEvidencePrefix = "query:"

// ProfileEntry is one thing Lore knows about a user: a key (profile_keys.txt
// says which keys hold one value and which a set), a value, how sure it is,
// whether the user stated it, and the evidence (memory ids, or QueryEvidence
// hashes of the queries it was inferred from).
type ProfileEntry struct {
	Key        string        `json:"key"`
	Value      string        `json:"value"`
	Confidence float64       `json:"confidence"`
	Source     ProfileSource `json:"source"`
	Evidence   []string      `json:"evidence"`
	UpdatedAt  time.Time     `json:"updated_at"`
	// ReplacedAt is set on history entries only: when a newer entry
	// replaced this one.
	ReplacedAt *time.Time `json:"replaced_at,omitempty"`
	// ValueKey, when set, stands for NormalizeProfileValue(Value) wherever
	// stores compare and deduplicate values (ProfileValueKey): the
	// encryption layer (package crypt) stores Value sealed, which random
	// encryption makes different each time, and sets ValueKey to a keyed
	// token of the normalised text. Stores fill it from what they store on
	// the entries PlanProfileWrite reads. Never serialised.
	ValueKey string `json:"-"`
}

// ProfileValueKey returns what e's value is deduplicated by: its ValueKey
// when set, else its normalised value.
func ProfileValueKey(e ProfileEntry) string {
	if e.ValueKey != "" {
		return e.ValueKey
	}
	return NormalizeProfileValue(e.Value)
}

// ProfileStore holds users' profiles. Implementations: graph/sqlite and
// graph/neo4j; storetest.RunProfile covers both. A profile belongs to a
// user: scope must name one, and only its tenant and user are used.
// GraphStore.DeleteScope removes a user's profile with the user.
type ProfileStore interface {
	// PutProfileEntry writes e under the precedence rules of
	// PlanProfileWrite, in one transaction with the read of the stored
	// entries it checks against, and reports what it did.
	PutProfileEntry(ctx context.Context, scope Scope, e ProfileEntry) (ProfileWrite, error)
	// ProfileEntries returns the user's current entries ordered by key,
	// then value.
	ProfileEntries(ctx context.Context, scope Scope) ([]ProfileEntry, error)
	// ProfileHistory returns the entries of key that newer ones replaced,
	// oldest first ("" for every key).
	ProfileHistory(ctx context.Context, scope Scope, key string) ([]ProfileEntry, error)
	// DeleteProfileKey removes key's entries and their history, and
	// returns how many current entries went; ENOTFOUND when there were none.
	DeleteProfileKey(ctx context.Context, scope Scope, key string) (int, error)
}

// ProfileWrite is what a PutProfileEntry did: Entry is the stored entry
// when Written, Replaced the entries it moved to history, Reason why
// nothing was written otherwise.
type ProfileWrite struct {
	Written  bool           `json:"written"`
	Entry    *ProfileEntry  `json:"entry,omitempty"`
	Replaced []ProfileEntry `json:"replaced,omitempty"`
	Reason   string         `json:"reason,omitempty"`
}

// profileKeysTable is profile_keys.txt.
//
//go:embed profile_keys.txt
var profileKeysTable string

// ProfileKeyInfo is one row of profile_keys.txt.
type ProfileKeyInfo struct {
	Key   string // may end in "_*"
	Multi bool
	About string
}

// ProfileKeys returns the documented profile keys, in table order.
func ProfileKeys() []ProfileKeyInfo {
	var out []ProfileKeyInfo
	for line := range strings.Lines(profileKeysTable) {
		about := ""
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line, about = line[:i], strings.TrimSpace(line[i+1:])
		}
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		out = append(out, ProfileKeyInfo{Key: f[0], Multi: f[1] == "multi", About: about})
	}
	return out
}

// MultiValuedProfileKey reports whether key holds a set of values
// (interests, places) rather than one (diet).
func MultiValuedProfileKey(key string) bool {
	for _, k := range ProfileKeys() {
		if base, prefix := strings.CutSuffix(k.Key, "*"); prefix {
			if strings.HasPrefix(key, base) && len(key) > len(base) {
				return k.Multi
			}
		} else if k.Key == key {
			return k.Multi
		}
	}
	return false
}

// QueryEvidence returns the evidence reference of a query: a hash of its
// normalised text, never the text.
func QueryEvidence(query string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(strings.Join(strings.Fields(query), " "))))
	return QueryEvidencePrefix + hex.EncodeToString(sum[:16])
}

// NormalizeProfileValue is the form two values are compared in: lower
// case, single spaces, no surrounding punctuation.
func NormalizeProfileValue(v string) string { return NormalizeName(v) }

// Normalize validates e and puts it in stored form: key in predicate form,
// value trimmed, source explicit when empty, confidence 1 for an explicit
// entry that gives none, evidence deduplicated (newest MaxProfileEvidence),
// UpdatedAt at now when zero. It returns EINVALID naming the bad field.
func (e *ProfileEntry) Normalize(now time.Time) error {
	key, err := NormalizePredicate(e.Key)
	if err != nil || strings.TrimSpace(e.Key) == "" {
		return Errorf(EINVALID, "profile key %q must be a word or snake_case words", e.Key)
	}
	e.Key = key
	e.Value = strings.Join(strings.Fields(e.Value), " ")
	limit := MaxProfileValue
	if e.ValueKey != "" {
		limit = MaxSealedProfileValue
	}
	switch {
	case e.Value == "" || NormalizeProfileValue(e.Value) == "":
		return Errorf(EINVALID, "profile entry %q needs a value", key)
	case len(e.Value) > limit:
		return Errorf(EINVALID, "profile value of %q is longer than %d bytes", key, limit)
	case !utf8.ValidString(e.Value) || strings.ContainsFunc(e.Value, unicode.IsControl):
		return Errorf(EINVALID, "profile value of %q holds a control or invalid character", key)
	}
	switch e.Source {
	case "":
		e.Source = ProfileExplicit
	case ProfileExplicit, ProfileInferred:
	default:
		return Errorf(EINVALID, "profile source must be %q or %q, got %q", ProfileExplicit, ProfileInferred, e.Source)
	}
	if e.Confidence < 0 || e.Confidence > 1 || e.Confidence != e.Confidence {
		return Errorf(EINVALID, "profile confidence must be between 0 and 1, got %v", e.Confidence)
	}
	if e.Confidence == 0 && e.Source == ProfileExplicit {
		e.Confidence = 1
	}
	var ev []string
	for _, id := range e.Evidence {
		if id = strings.TrimSpace(id); id != "" && !slices.Contains(ev, id) {
			if err := ValidateID("evidence", id); err != nil {
				return err
			}
			ev = append(ev, id)
		}
	}
	if len(ev) > MaxProfileEvidence {
		ev = ev[len(ev)-MaxProfileEvidence:]
	}
	e.Evidence = ev
	if e.Evidence == nil {
		e.Evidence = []string{}
	}
	if e.UpdatedAt.IsZero() {
		e.UpdatedAt = now
	}
	e.UpdatedAt = e.UpdatedAt.UTC()
	e.ReplacedAt = nil
	return nil
}

// PlanProfileWrite decides what writing e (normalised) does given the
// user's stored entries of the same key. Stores call it inside the
// transaction that read stored, so the rules hold under concurrent writes:
//
//   - an inferred entry below ProfileFloor is never written;
//   - an inferred entry never overwrites an explicit one, of the same value
//     or, for a single-valued key, of any value;
//   - the same value again merges: evidence unioned, the higher confidence,
//     the later time, and explicit if either is;
//   - for a single-valued key, a different explicit value replaces the
//     stored one (unless older than it), and a different inferred value
//     replaces an inferred one of no higher confidence; the replaced entry
//     goes to history;
//   - a multi-valued key keeps each value apart.
func PlanProfileWrite(stored []ProfileEntry, e ProfileEntry) ProfileWrite {
	if e.Source == ProfileInferred && e.Confidence < ProfileFloor {
		return ProfileWrite{Reason: "inferred with confidence below 0.5"}
	}
	multi := MultiValuedProfileKey(e.Key)
	norm := ProfileValueKey(e)
	for _, s := range stored {
		if ProfileValueKey(s) != norm {
			continue
		}
		if s.Source == ProfileExplicit && e.Source == ProfileInferred {
			return ProfileWrite{Reason: "an explicit entry holds this value"}
		}
		merged := s
		merged.Confidence = max(s.Confidence, e.Confidence)
		if e.Source == ProfileExplicit {
			merged.Source, merged.Value = ProfileExplicit, e.Value
		}
		merged.Evidence = mergeEvidence(s.Evidence, e.Evidence)
		if e.UpdatedAt.After(s.UpdatedAt) {
			merged.UpdatedAt = e.UpdatedAt
		}
		return ProfileWrite{Written: true, Entry: &merged}
	}
	if multi {
		return ProfileWrite{Written: true, Entry: &e}
	}
	var replaced []ProfileEntry
	for _, s := range stored {
		switch {
		case s.Source == ProfileExplicit && e.Source == ProfileInferred:
			return ProfileWrite{Reason: "an explicit value is stored for this key"}
		case s.Source == ProfileExplicit && e.UpdatedAt.Before(s.UpdatedAt):
			return ProfileWrite{Reason: "a newer explicit value is stored for this key"}
		case s.Source == ProfileInferred && e.Source == ProfileInferred && e.Confidence < s.Confidence:
			return ProfileWrite{Reason: "a more confident inferred value is stored for this key"}
		}
		replaced = append(replaced, s)
	}
	return ProfileWrite{Written: true, Entry: &e, Replaced: replaced}
}

// mergeEvidence unions two evidence lists, keeping the newest
// MaxProfileEvidence.
func mergeEvidence(a, b []string) []string {
	out := slices.Clone(a)
	for _, id := range b {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	if len(out) > MaxProfileEvidence {
		out = out[len(out)-MaxProfileEvidence:]
	}
	return out
}

// ValidateProfileScope reports EINVALID unless scope names a user: a
// profile belongs to one.
func ValidateProfileScope(scope Scope) error {
	if err := scope.Validate(); err != nil {
		return err
	}
	if scope.UserID == "" {
		return Errorf(EINVALID, "a profile belongs to a user: user_id is required")
	}
	return nil
}
