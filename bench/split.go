package bench

import (
	"fmt"
	"hash/fnv"
	"sort"
)

// Split names the part of a dev dataset a run scores: the tuning half, the
// validation half, or all of it (issue 17's protocol, bench/README.md).
type Split string

// The splits.
const (
	SplitAll      Split = "all"
	SplitTune     Split = "tune"
	SplitValidate Split = "validate"
)

// SplitSeed fixes the halves. Changing it changes every half, and every
// figure quoted against one, so it is a constant, not a flag.
const SplitSeed = "lore-split-2026-12"

// ParseSplit reads a --split value; empty means all.
func ParseSplit(s string) (Split, error) {
	switch Split(s) {
	case "", SplitAll:
		return SplitAll, nil
	case SplitTune, SplitValidate:
		return Split(s), nil
	}
	return "", fmt.Errorf("split must be tune, validate or all, got %q", s)
}

// Halves assigns each space of ds to the tuning or the validation half.
//
// LoCoMo spaces are conversations and form one stratum; LongMemEval spaces
// are questions, stratified by question type (the group of their one
// question). Within a stratum the spaces are ordered by the FNV-1a 64-bit
// hash of SplitSeed, a NUL byte and the space id (ties by id), and the first
// half of that order goes to tune, the second to validate. A stratum's odd
// space goes to whichever half is smaller so far (tune on a tie), strata
// taken in name order, so the halves differ by at most one space overall and
// by at most one per stratum. A space's half depends only on the seed, its
// id and the other ids of its stratum, never on the order of the file.
func (ds *Dataset) Halves() map[string]Split {
	strata := map[string][]string{}
	for _, sp := range ds.Spaces {
		key := ""
		if ds.Name == "longmemeval" && len(sp.Questions) > 0 {
			key = sp.Questions[0].Group
		}
		strata[key] = append(strata[key], sp.ID)
	}
	return splitStrata(strata, SplitSeed)
}

// splitStrata halves each stratum of ids as Halves describes.
func splitStrata(strata map[string][]string, seed string) map[string]Split {
	names := make([]string, 0, len(strata))
	for k := range strata {
		names = append(names, k)
	}
	sort.Strings(names)
	out := map[string]Split{}
	tune, validate := 0, 0
	for _, name := range names {
		ids := append([]string(nil), strata[name]...)
		keys := make(map[string]uint64, len(ids))
		for _, id := range ids {
			keys[id] = splitHash(seed, id)
		}
		sort.Slice(ids, func(i, j int) bool {
			if keys[ids[i]] != keys[ids[j]] {
				return keys[ids[i]] < keys[ids[j]]
			}
			return ids[i] < ids[j]
		})
		half := len(ids) / 2
		for i, id := range ids {
			switch {
			case i < half:
				out[id] = SplitTune
			case i < 2*half:
				out[id] = SplitValidate
			case tune <= validate:
				out[id] = SplitTune
			default:
				out[id] = SplitValidate
			}
			if out[id] == SplitTune {
				tune++
			} else {
				validate++
			}
		}
	}
	return out
}

// splitHash is the FNV-1a 64-bit hash of seed, a NUL byte and id.
func splitHash(seed, id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(seed))
	h.Write([]byte{0})
	h.Write([]byte(id))
	return h.Sum64()
}

// Half returns ds restricted to the spaces of one half, in their original
// order, with Split set; SplitAll returns ds itself.
func (ds *Dataset) Half(s Split) *Dataset {
	if s == SplitAll || s == "" {
		return ds
	}
	halves := ds.Halves()
	out := &Dataset{Name: ds.Name, SessionOf: ds.SessionOf, Split: s}
	for _, sp := range ds.Spaces {
		if halves[sp.ID] == s {
			out.Spaces = append(out.Spaces, sp)
		}
	}
	return out
}
