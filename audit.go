package lore

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"time"
)

// Audit actions: what an AuditRecord says happened. The set is closed so
// that a reader of the log knows every kind it can meet.
const (
	AuditErase        = "erase"         // a user, agent or run erased (DELETE /v1/memories)
	AuditEraseTenant  = "erase.tenant"  // a whole tenant erased
	AuditExport       = "export"        // a user's memories exported
	AuditImport       = "import"        // an export file imported (lore import)
	AuditKeyCreate    = "key.create"    // an API key created
	AuditKeyRevoke    = "key.revoke"    // an API key revoked
	AuditAuthFailure  = "auth.failure"  // a request refused with 401 or 403
	AuditRead         = "audit.read"    // the audit log read over the API
	AuditRetention    = "retention"     // the retention sweeper removed expired memories or raw text
	AuditRetentionSet = "retention.set" // a tenant's retention policy changed
	AuditRotateMaster = "keys.rotate"   // the encryption master key rotated
	AuditReseal       = "keys.reseal"   // a tenant's names written in the clear sealed (lore keys reseal)
)

// AuditActions lists every action a record may hold.
var AuditActions = []string{AuditErase, AuditEraseTenant, AuditExport, AuditImport, AuditKeyCreate, AuditKeyRevoke,
	AuditAuthFailure, AuditRead, AuditRetention, AuditRetentionSet, AuditRotateMaster, AuditReseal}

// Audit outcomes.
const (
	AuditOK      = "ok"
	AuditRefused = "refused"
	AuditFailed  = "failed"
)

// AuditGenesis is the PrevHash of the first record of a log.
const AuditGenesis = "0000000000000000000000000000000000000000000000000000000000000000"

// AuditRecord is one entry of the audit log: append-only and hash-chained.
// Hash is the SHA-256 of the record's fields and PrevHash (see Digest), so a
// record holds the hash of the one before it, and Sig is the HMAC-SHA256 of
// Hash under the server's audit key, so nobody without the key can write a
// record that verifies, nor re-chain the log after changing one.
//
// A record holds ids and counts, never memory content. A user or agent
// appears as a keyed pseudonym (AuditPseudonym), so the record of an erase
// outlives the erase without naming whom it erased.
type AuditRecord struct {
	Seq      int64     `json:"seq"`
	Time     time.Time `json:"time"`
	TenantID string    `json:"tenant_id"`
	Action   string    `json:"action"`
	// Actor is who acted: an API key id, "cli", "system" (the sweeper),
	// "anonymous" (a server running without keys) or "" when unknown.
	Actor string `json:"actor"`
	// Subject is the pseudonym of the user or agent acted on, if any.
	Subject string `json:"subject,omitempty"`
	// Target is a non-personal id acted on: a key id, a run, a job.
	Target  string            `json:"target,omitempty"`
	Outcome string            `json:"outcome"`
	Detail  map[string]string `json:"detail,omitempty"`

	PrevHash string `json:"prev_hash"`
	Hash     string `json:"hash"`
	Sig      string `json:"sig"`

	// SubjectRef is whom Subject stands for. It is never part of the
	// record: AppendAudit keeps it in the store's pseudonym map, which an
	// erase of that user or agent removes. Nil records no mapping.
	SubjectRef *AuditSubject `json:"-"`
}

// AuditSubject is the user or agent a pseudonym stands for.
type AuditSubject struct {
	UserID  string `json:"user_id,omitempty"`
	AgentID string `json:"agent_id,omitempty"`
}

// Digest returns the hex SHA-256 of the record's content and PrevHash (Seq,
// Time at microseconds, every field and Detail in key order, each length
// prefixed, so no two records share an encoding), without Hash and Sig.
func (r *AuditRecord) Digest() string {
	h := sha256.New()
	field := func(s string) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	field("lore-audit/1")
	field(strconv.FormatInt(r.Seq, 10))
	field(strconv.FormatInt(r.Time.UnixMicro(), 10))
	for _, s := range []string{r.TenantID, r.Action, r.Actor, r.Subject, r.Target, r.Outcome} {
		field(s)
	}
	keys := make([]string, 0, len(r.Detail))
	for k := range r.Detail {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	field(strconv.Itoa(len(keys)))
	for _, k := range keys {
		field(k)
		field(r.Detail[k])
	}
	field(r.PrevHash)
	return hex.EncodeToString(h.Sum(nil))
}

// auditSig returns the hex HMAC-SHA256 of hash under key.
func auditSig(key []byte, hash string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(hash))
	return hex.EncodeToString(m.Sum(nil))
}

// SealAudit makes rec the record after prev (nil: the first): it sets Seq,
// PrevHash, Time at the stored precision (microseconds, UTC), Hash and Sig
// under key.
func SealAudit(key []byte, prev, rec *AuditRecord) {
	rec.Seq, rec.PrevHash = 1, AuditGenesis
	if prev != nil {
		rec.Seq, rec.PrevHash = prev.Seq+1, prev.Hash
	}
	rec.Time = rec.Time.UTC().Truncate(time.Microsecond)
	rec.Hash = rec.Digest()
	rec.Sig = auditSig(key, rec.Hash)
}

// AuditProblem is a record that does not verify, and why.
type AuditProblem struct {
	Seq    int64  `json:"seq"`
	Reason string `json:"reason"`
}

// AuditVerifier checks a log read in Seq order, one record at a time (Add),
// so a long log is verified page by page. It detects an edited record (its
// Hash no longer matches its content), a forged one (its Sig is not the
// key's), a removed or reordered one (Seq not one more than the previous,
// or PrevHash not the previous Hash). Removing records from the end leaves
// a shorter chain that verifies: compare Head with a head noted earlier.
type AuditVerifier struct {
	Key      []byte
	Checked  int
	Problems []AuditProblem
	prev     *AuditRecord
}

// Add checks rec against the record before it.
func (v *AuditVerifier) Add(rec *AuditRecord) {
	v.Checked++
	bad := func(format string, args ...any) {
		v.Problems = append(v.Problems, AuditProblem{Seq: rec.Seq, Reason: fmt.Sprintf(format, args...)})
	}
	wantSeq, wantPrev := int64(1), AuditGenesis
	if v.prev != nil {
		wantSeq, wantPrev = v.prev.Seq+1, v.prev.Hash
	}
	if rec.Seq != wantSeq {
		bad("seq %d follows %d: records were removed or reordered", rec.Seq, wantSeq-1)
	}
	if rec.PrevHash != wantPrev {
		bad("prev_hash is not the hash of the record before it: records were removed, reordered or edited")
	}
	if d := rec.Digest(); d != rec.Hash {
		bad("hash does not match the record's content: the record was edited")
	} else if !hmac.Equal([]byte(auditSig(v.Key, rec.Hash)), []byte(rec.Sig)) {
		bad("signature is not the audit key's: the record was forged or re-hashed")
	}
	v.prev = rec
}

// Head returns the last record checked, or nil.
func (v *AuditVerifier) Head() *AuditRecord { return v.prev }

// AuditPseudonym returns the pseudonym of a user (kind "user") or an agent
// (kind "agent") of tenant in the audit log: a keyed hash under key, stable
// for the key, so records about one person can be linked by whoever holds
// the key and the id, and by nobody from the log alone.
func AuditPseudonym(key []byte, tenantID, kind, id string) string {
	// A key of its own, derived, so a pseudonym is never a record's Sig.
	d := hmac.New(sha256.New, key)
	d.Write([]byte("lore-audit-pseudonym/1"))
	m := hmac.New(sha256.New, d.Sum(nil))
	for _, s := range []string{tenantID, kind, id} {
		m.Write([]byte(strconv.Itoa(len(s)) + ":" + s))
	}
	return "p_" + hex.EncodeToString(m.Sum(nil))[:32]
}

// AuditFilter selects audit records: of TenantID ("" every tenant), with
// Seq > AfterSeq, of Action when set, at most Limit (0: no limit), in Seq
// order.
type AuditFilter struct {
	TenantID string
	Action   string
	AfterSeq int64
	Limit    int
}

// AuditStore holds the audit log. Implementations: graph/sqlite and
// graph/neo4j; storetest's Audit tests cover both.
type AuditStore interface {
	// AppendAudit appends rec as the log's next record: in one transaction,
	// serialized against every other append (from any process), it reads
	// the last record, calls seal with it (nil when the log is empty) to
	// set rec's Seq, PrevHash, Hash and Sig, and stores rec and, when
	// rec.SubjectRef is set, the pseudonym's mapping. Records are never
	// changed or deleted.
	AppendAudit(ctx context.Context, rec *AuditRecord, seal func(prev *AuditRecord)) error
	// ListAudit returns the records filter selects, in Seq order.
	ListAudit(ctx context.Context, filter AuditFilter) ([]*AuditRecord, error)
	// AuditSubject returns whom a pseudonym of the tenant stands for, or
	// ENOTFOUND when no mapping was kept or that user or agent was erased
	// since (DeleteScope removes the mapping, never the records).
	AuditSubject(ctx context.Context, tenantID, pseudonym string) (*AuditSubject, error)
}
