package lore

import (
	"strings"
	"testing"
	"time"
)

// auditChain returns n records sealed one after another under key.
func auditChain(key []byte, n int) []*AuditRecord {
	var out []*AuditRecord
	var prev *AuditRecord
	for i := range n {
		r := &AuditRecord{Time: time.Date(2026, 1, 1, 0, 0, i, 0, time.UTC), TenantID: "t", Action: AuditErase,
			Actor: "k1", Subject: AuditPseudonym(key, "t", "user", "alice"), Outcome: AuditOK, Detail: map[string]string{"facts": "3"}}
		SealAudit(key, prev, r)
		out = append(out, r)
		prev = r
	}
	return out
}

func verify(key []byte, recs []*AuditRecord) []AuditProblem {
	v := &AuditVerifier{Key: key}
	for _, r := range recs {
		v.Add(r)
	}
	return v.Problems
}

func TestAuditVerify(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	if p := verify(key, auditChain(key, 5)); len(p) != 0 {
		t.Fatalf("an untouched chain has problems: %+v", p)
	}
	cases := []struct {
		name   string
		tamper func([]*AuditRecord) []*AuditRecord
		seq    int64  // the first record reported
		reason string // in its reason
	}{
		{"edited action", func(r []*AuditRecord) []*AuditRecord { r[2].Action = AuditExport; return r }, 3, "edited"},
		{"edited detail", func(r []*AuditRecord) []*AuditRecord { r[1].Detail["facts"] = "0"; return r }, 2, "edited"},
		{"edited time", func(r []*AuditRecord) []*AuditRecord { r[4].Time = r[4].Time.Add(time.Hour); return r }, 5, "edited"},
		{"removed", func(r []*AuditRecord) []*AuditRecord { return append(r[:2:2], r[3:]...) }, 4, "removed"},
		{"removed first", func(r []*AuditRecord) []*AuditRecord { return r[1:] }, 2, "removed"},
		{"reordered", func(r []*AuditRecord) []*AuditRecord { r[1], r[2] = r[2], r[1]; return r }, 3, "reordered"},
		{"renumbered after a removal", func(r []*AuditRecord) []*AuditRecord {
			r = append(r[:2:2], r[3:]...)
			for i, rec := range r {
				rec.Seq = int64(i + 1)
			}
			return r
		}, 3, "edited"},
		{"re-hashed without the key", func(r []*AuditRecord) []*AuditRecord {
			r[2].Action = AuditExport
			r[2].Hash = r[2].Digest()
			return r
		}, 3, "signature"},
		{"signed with another key", func(r []*AuditRecord) []*AuditRecord {
			return auditChain([]byte("another key, not the server's one!"), 5)
		}, 1, "signature"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := verify(key, c.tamper(auditChain(key, 5)))
			if len(p) == 0 {
				t.Fatalf("no problem found, want one at seq %d", c.seq)
			}
			if p[0].Seq != c.seq || !strings.Contains(p[0].Reason, c.reason) {
				t.Errorf("first problem=%+v, want seq %d with %q", p[0], c.seq, c.reason)
			}
		})
	}
	// Truncating the tail leaves a valid, shorter chain: Head says how far
	// it goes, for comparison with a head noted earlier.
	v := &AuditVerifier{Key: key}
	recs := auditChain(key, 5)
	for _, r := range recs[:3] {
		v.Add(r)
	}
	if len(v.Problems) != 0 || v.Head().Seq != 3 || v.Head().Hash != recs[2].Hash {
		t.Errorf("truncated chain: problems %+v head %+v, want none and seq 3", v.Problems, v.Head())
	}
}

func TestAuditPseudonym(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	a := AuditPseudonym(key, "t", "user", "alice")
	if a != AuditPseudonym(key, "t", "user", "alice") {
		t.Fatalf("pseudonym not stable")
	}
	for _, other := range []string{
		AuditPseudonym(key, "t2", "user", "alice"), AuditPseudonym(key, "t", "agent", "alice"),
		AuditPseudonym(key, "t", "user", "alicf"), AuditPseudonym([]byte("another key"), "t", "user", "alice"),
		AuditPseudonym(key, "tu", "ser", "alice"),
	} {
		if other == a {
			t.Errorf("pseudonym %s shared with another tenant, kind, id or key", a)
		}
	}
	if strings.Contains(a, "alice") || len(a) != 34 {
		t.Errorf("pseudonym %q, want p_ and 32 hex digits", a)
	}
}
