// Package crypt is Lore's encryption at rest: envelope encryption with
// AES-256-GCM, a data key per tenant wrapped by a master key that lives
// outside the store (a file or an environment variable). Store and Index
// wrap any lore.Store and lore.Index so that the personal text they write
// (episode content, speakers and metadata, fact text, ends and metadata,
// entity names and aliases, history, job errors) is sealed under the
// tenant's data key, and BM25 keeps working through a blind index:
// the index sees each term as a keyed hash under a per-tenant key. Rotating
// the master key re-wraps the data keys and re-encrypts no data.
package crypt

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/lore-memory/lore"
)

// KeySize is the size of master and data keys: AES-256.
const KeySize = 32

// Prefix starts every sealed value, so a reader tells sealed text from
// text written before encryption was turned on.
const Prefix = "lore:enc:1:"

// Meta keys: a tenant's wrapped data key, and the list of tenants that have
// one (MetaStore cannot list keys).
const (
	dekPrefix  = "crypt.dek:"
	tenantsKey = "crypt.tenants"
)

// ParseMasterKey reads a master key written as 64 hex digits or as
// standard or URL base64 of 32 bytes.
func ParseMasterKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if b, err := hex.DecodeString(s); err == nil && len(b) == KeySize {
		return b, nil
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil && len(b) == KeySize {
			return b, nil
		}
	}
	return nil, lore.Errorf(lore.EINVALID, "a master key must be %d bytes as 64 hex digits or base64", KeySize)
}

// NewMasterKey returns a fresh master key in hex.
func NewMasterKey() (string, error) {
	b := make([]byte, KeySize)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// masterID names a master key without revealing it.
func masterID(master []byte) string {
	m := hmac.New(sha256.New, master)
	m.Write([]byte("lore-master-id/1"))
	return hex.EncodeToString(m.Sum(nil))[:16]
}

// metaCreator sets a setting only if it is unset and returns what it holds
// (graph/sqlite and graph/neo4j): two processes making a tenant's first
// data key at once agree on one.
type metaCreator interface {
	CreateMeta(ctx context.Context, key, value string) (string, error)
}

// wrapped is a tenant's data key as the store holds it.
type wrapped struct {
	Version  int    `json:"v"`
	MasterID string `json:"master_id"`
	Key      string `json:"key"` // base64(nonce || AES-256-GCM(master, dek))
	// Names is set on a data key made for a tenant that held nothing yet,
	// since entity names, fact ends and speakers are sealed, and by
	// ResealNames: such a tenant holds none of them in the clear, so the
	// layer need not look for names written before.
	Names bool `json:"names,omitempty"`
}

// Keyring seals and opens text under each tenant's data key, creating a
// tenant's key on its first write. Data keys are cached in memory.
type Keyring struct {
	meta   lore.MetaStore
	master []byte
	mu     sync.Mutex
	deks   map[string]*tenantKey
}

// tenantKey is a tenant's data key and what derives from it.
type tenantKey struct {
	aead  cipher.AEAD
	dek   []byte
	blind []byte // the blind index key: HMAC(dek, "blind-index")
	// legacy: the tenant's key predates sealed names, so its store may
	// hold names in the clear (graph.go looks for them too) until
	// ResealNames has sealed them.
	legacy atomic.Bool
}

// NewKeyring returns a keyring over the store's settings, under master.
func NewKeyring(meta lore.MetaStore, master []byte) (*Keyring, error) {
	if len(master) != KeySize {
		return nil, lore.Errorf(lore.EINVALID, "the master key must be %d bytes", KeySize)
	}
	return &Keyring{meta: meta, master: master, deks: map[string]*tenantKey{}}, nil
}

func gcm(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// seal encrypts plain under aead with a random nonce and ad bound in.
func seal(aead cipher.AEAD, plain, ad []byte) ([]byte, error) {
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return aead.Seal(nonce, nonce, plain, ad), nil
}

// open decrypts what seal made.
func open(aead cipher.AEAD, sealed, ad []byte) ([]byte, error) {
	if len(sealed) < aead.NonceSize() {
		return nil, errors.New("sealed value too short")
	}
	return aead.Open(nil, sealed[:aead.NonceSize()], sealed[aead.NonceSize():], ad)
}

// wrapKey wraps dek for tenant under master; names says the tenant's
// names were sealed from its first write (wrapped.Names).
func wrapKey(master, dek []byte, tenant string, names bool) (string, error) {
	aead, err := gcm(master)
	if err != nil {
		return "", err
	}
	ct, err := seal(aead, dek, []byte("dek:"+tenant))
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(wrapped{Version: 1, MasterID: masterID(master), Key: base64.StdEncoding.EncodeToString(ct), Names: names})
	return string(b), err
}

// unwrapKey returns the data key a stored value wraps under master, and
// whether the tenant's names were sealed from its first write.
func unwrapKey(master []byte, stored, tenant string) ([]byte, bool, error) {
	var w wrapped
	if err := json.Unmarshal([]byte(stored), &w); err != nil {
		return nil, false, fmt.Errorf("crypt: tenant %q: stored data key: %w", tenant, err)
	}
	if w.MasterID != masterID(master) {
		return nil, false, lore.Errorf(lore.EUNAVAILABLE, "tenant %q's data key is wrapped by another master key (id %s, this one is %s)", tenant, w.MasterID, masterID(master))
	}
	ct, err := base64.StdEncoding.DecodeString(w.Key)
	if err != nil {
		return nil, false, fmt.Errorf("crypt: tenant %q: stored data key: %w", tenant, err)
	}
	aead, err := gcm(master)
	if err != nil {
		return nil, false, err
	}
	dek, err := open(aead, ct, []byte("dek:"+tenant))
	if err != nil {
		return nil, false, fmt.Errorf("crypt: tenant %q: unwrap data key: %w", tenant, err)
	}
	return dek, w.Names, nil
}

// key returns the tenant's key, loading or creating it.
func (k *Keyring) key(ctx context.Context, tenant string) (*tenantKey, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if tk := k.deks[tenant]; tk != nil {
		return tk, nil
	}
	stored, err := k.meta.GetMeta(ctx, dekPrefix+tenant)
	var dek []byte
	var names bool
	switch {
	case err == nil:
		if dek, names, err = unwrapKey(k.master, stored, tenant); err != nil {
			return nil, err
		}
	case lore.ErrorCode(err) == lore.ENOTFOUND:
		dek = make([]byte, KeySize)
		if _, err := rand.Read(dek); err != nil {
			return nil, err
		}
		// A tenant that stored anything before its first key (a store
		// that ran without encryption) may hold names in the clear.
		fresh, err := k.empty(ctx, tenant)
		if err != nil {
			return nil, err
		}
		w, err := wrapKey(k.master, dek, tenant, fresh)
		if err != nil {
			return nil, err
		}
		if err := k.register(ctx, tenant); err != nil {
			return nil, err
		}
		if mc, ok := k.meta.(metaCreator); ok {
			// Another process may have made the tenant's key first: use
			// the one stored.
			stored, err := mc.CreateMeta(lore.WithoutFence(ctx), dekPrefix+tenant, w)
			if err != nil {
				return nil, err
			}
			if dek, names, err = unwrapKey(k.master, stored, tenant); err != nil {
				return nil, err
			}
		} else if err := k.meta.SetMeta(lore.WithoutFence(ctx), dekPrefix+tenant, w); err != nil {
			return nil, err
		} else {
			names = fresh
		}
	default:
		return nil, err
	}
	aead, err := gcm(dek)
	if err != nil {
		return nil, err
	}
	m := hmac.New(sha256.New, dek)
	m.Write([]byte("lore-blind-index/1"))
	tk := &tenantKey{aead: aead, dek: dek, blind: m.Sum(nil)}
	tk.legacy.Store(!names)
	k.deks[tenant] = tk
	return tk, nil
}

// empty reports whether the store holds nothing of the tenant yet, as far
// as it can tell (a store that cannot list a tenant's users may).
func (k *Keyring) empty(ctx context.Context, tenant string) (bool, error) {
	d, ok := k.meta.(lore.Directory)
	if !ok {
		return false, nil
	}
	scopes, err := d.Scopes(ctx, tenant, 1)
	if err != nil {
		return false, err
	}
	return len(scopes) == 0, nil
}

// register adds tenant to the list rotate-master walks.
func (k *Keyring) register(ctx context.Context, tenant string) error {
	list, err := tenants(ctx, k.meta)
	if err != nil {
		return err
	}
	if slices.Contains(list, tenant) {
		return nil
	}
	b, err := json.Marshal(append(list, tenant))
	if err != nil {
		return err
	}
	return k.meta.SetMeta(lore.WithoutFence(ctx), tenantsKey, string(b))
}

// tenants returns the tenants that have a data key.
func tenants(ctx context.Context, meta lore.MetaStore) ([]string, error) {
	raw, err := meta.GetMeta(ctx, tenantsKey)
	if lore.ErrorCode(err) == lore.ENOTFOUND {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var list []string
	if err := json.Unmarshal([]byte(raw), &list); err != nil {
		return nil, fmt.Errorf("crypt: tenant list: %w", err)
	}
	return list, nil
}

// Seal encrypts plain under the tenant's data key, bound to the tenant.
// The empty string stays empty.
func (k *Keyring) Seal(ctx context.Context, tenant, plain string) (string, error) {
	if plain == "" {
		return "", nil
	}
	tk, err := k.key(ctx, tenant)
	if err != nil {
		return "", err
	}
	ct, err := seal(tk.aead, []byte(plain), []byte(tenant))
	if err != nil {
		return "", err
	}
	return Prefix + base64.RawStdEncoding.EncodeToString(ct), nil
}

// SealDeterministic encrypts plain like Seal, in the same form (Open opens
// it), but with a synthetic nonce: HMAC-SHA256 of plain under a key derived
// from the data key and purpose. Equal texts seal to equal strings, so a
// store can still compare them (evidence lists are deduplicated by
// value); different texts share a nonce with negligible chance. Equality
// is all it reveals.
func (k *Keyring) SealDeterministic(ctx context.Context, tenant, purpose, plain string) (string, error) {
	if plain == "" {
		return "", nil
	}
	ct, err := k.siv(ctx, tenant, purpose, plain)
	if err != nil {
		return "", err
	}
	return Prefix + base64.RawStdEncoding.EncodeToString(ct), nil
}

// NamePrefix starts a name sealed by SealName.
const NamePrefix = "lore:encn:1:"

// nameEncoding is lowercase base32 without padding: letters and digits
// only, so lore.NormalizeName leaves a sealed name as it is.
var nameEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// displayDigits write the sealed display form of a name, four bits a
// character: punctuation and symbols only, which lore.NormalizeName trims
// from the end of a name, and none that JSON escapes.
const displayDigits = "!#$%&*+-./:;<=>?"

// SealName seals a name the stores look up or deduplicate by value (an
// entity's name or alias, a literal fact object). Its normalized form
// (lore.NormalizeName) is sealed deterministically, as SealDeterministic
// does, and written in lowercase letters and digits after NamePrefix;
// when the name differs from that form (capitals, spacing), the name
// itself follows, sealed with a random nonce and written in punctuation.
// lore.NormalizeName of the result is therefore its deterministic part:
// a store that keys on the normalized name keys on the sealed normalized
// name, and names equal once normalized meet there, while the store's
// display copy of the name keeps its spelling. Open opens either part,
// the display one when there is one.
func (k *Keyring) SealName(ctx context.Context, tenant, purpose, name string) (string, error) {
	norm := lore.NormalizeName(name)
	if norm == "" {
		return "", nil
	}
	ct, err := k.siv(ctx, tenant, purpose, norm)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(NamePrefix)
	b.WriteString(nameEncoding.EncodeToString(ct))
	if name != norm {
		tk, err := k.key(ctx, tenant)
		if err != nil {
			return "", err
		}
		disp, err := seal(tk.aead, []byte(name), []byte(tenant))
		if err != nil {
			return "", err
		}
		for _, c := range disp {
			b.WriteByte(displayDigits[c>>4])
			b.WriteByte(displayDigits[c&15])
		}
	}
	return b.String(), nil
}

// splitName returns the deterministic and the display part of a sealed
// name, decoded.
func splitName(rest string) (det, disp []byte, err error) {
	i := strings.IndexAny(rest, displayDigits)
	if i < 0 {
		i = len(rest)
	}
	if det, err = nameEncoding.DecodeString(rest[:i]); err != nil {
		return nil, nil, err
	}
	tail := rest[i:]
	if len(tail)%2 != 0 {
		return nil, nil, errors.New("odd display part")
	}
	for j := 0; j < len(tail); j += 2 {
		hi, lo := strings.IndexByte(displayDigits, tail[j]), strings.IndexByte(displayDigits, tail[j+1])
		if hi < 0 || lo < 0 {
			return nil, nil, errors.New("bad display digit")
		}
		disp = append(disp, byte(hi<<4|lo))
	}
	return det, disp, nil
}

// siv returns nonce || AES-256-GCM(plain) with the nonce a truncated
// HMAC-SHA256 of plain under a key derived from the data key and purpose,
// the tenant bound in as associated data.
func (k *Keyring) siv(ctx context.Context, tenant, purpose, plain string) ([]byte, error) {
	tk, err := k.key(ctx, tenant)
	if err != nil {
		return nil, err
	}
	d := hmac.New(sha256.New, tk.dek)
	d.Write([]byte("lore-siv/1/" + purpose))
	m := hmac.New(sha256.New, d.Sum(nil))
	m.Write([]byte(plain))
	nonce := m.Sum(nil)[:tk.aead.NonceSize()]
	return tk.aead.Seal(slices.Clip(nonce), nonce, []byte(plain), []byte(tenant)), nil
}

// IsSealed reports whether s is a value Seal, SealDeterministic or
// SealName made.
func IsSealed(s string) bool {
	return strings.HasPrefix(s, Prefix) || strings.HasPrefix(s, NamePrefix)
}

// Open decrypts a value Seal, SealDeterministic or SealName made for the
// tenant; a value without either prefix (written before encryption, or
// before that field was sealed) comes back as it is.
func (k *Keyring) Open(ctx context.Context, tenant, s string) (string, error) {
	var ct []byte
	var err error
	if rest, ok := strings.CutPrefix(s, Prefix); ok {
		ct, err = base64.RawStdEncoding.DecodeString(rest)
	} else if rest, ok := strings.CutPrefix(s, NamePrefix); ok {
		var disp []byte
		ct, disp, err = splitName(rest)
		if len(disp) > 0 {
			ct = disp
		}
	} else {
		return s, nil
	}
	if err != nil {
		return "", fmt.Errorf("crypt: sealed value: %w", err)
	}
	tk, err := k.key(ctx, tenant)
	if err != nil {
		return "", err
	}
	plain, err := open(tk.aead, ct, []byte(tenant))
	if err != nil {
		return "", fmt.Errorf("crypt: open a value of tenant %q: %w", tenant, err)
	}
	return string(plain), nil
}

// Blind returns the blind index token of an analyzed term: 20 hex digits
// of HMAC-SHA256 under the tenant's blind index key.
func (k *Keyring) Blind(ctx context.Context, tenant, term string) (string, error) {
	tk, err := k.key(ctx, tenant)
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, tk.blind)
	m.Write([]byte(term))
	return "b" + hex.EncodeToString(m.Sum(nil))[:20], nil
}

// Token returns a keyed, deterministic token of parts for one purpose:
// 32 hex digits of HMAC-SHA256 under a key derived from the tenant's data
// key and purpose, so equal inputs give equal tokens within the tenant
// and purpose, and nobody without the data key can confirm a guess. The
// parts are length-prefixed, so ("ab","c") and ("a","bc") differ.
func (k *Keyring) Token(ctx context.Context, tenant, purpose string, parts ...string) (string, error) {
	tk, err := k.key(ctx, tenant)
	if err != nil {
		return "", err
	}
	d := hmac.New(sha256.New, tk.dek)
	d.Write([]byte("lore-token/1/" + purpose))
	m := hmac.New(sha256.New, d.Sum(nil))
	for _, p := range parts {
		fmt.Fprintf(m, "%d:%s", len(p), p)
	}
	return hex.EncodeToString(m.Sum(nil))[:32], nil
}

// Forget drops a tenant's data key, from the store too: whatever of the
// tenant is left anywhere (a backup, a replica) can no longer be read.
func (k *Keyring) Forget(ctx context.Context, tenant string) error {
	k.mu.Lock()
	delete(k.deks, tenant)
	k.mu.Unlock()
	es, ok := k.meta.(lore.EraseStore)
	if !ok {
		return nil
	}
	_, err := es.DeleteMetaPrefix(lore.WithoutFence(ctx), dekPrefix+tenant)
	return err
}

// RotateMaster re-wraps every tenant's data key from oldMaster to
// newMaster, re-encrypting no data, and returns how many it re-wrapped. A
// key already wrapped by newMaster is left alone, so an interrupted
// rotation can be run again.
func RotateMaster(ctx context.Context, meta lore.MetaStore, oldMaster, newMaster []byte) (int, error) {
	if len(oldMaster) != KeySize || len(newMaster) != KeySize {
		return 0, lore.Errorf(lore.EINVALID, "master keys must be %d bytes", KeySize)
	}
	list, err := tenants(ctx, meta)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, t := range list {
		stored, err := meta.GetMeta(ctx, dekPrefix+t)
		if lore.ErrorCode(err) == lore.ENOTFOUND {
			continue // the tenant was erased
		} else if err != nil {
			return n, err
		}
		if dek, _, err := unwrapKey(newMaster, stored, t); err == nil && len(dek) == KeySize {
			continue
		}
		dek, names, err := unwrapKey(oldMaster, stored, t)
		if err != nil {
			return n, err
		}
		w, err := wrapKey(newMaster, dek, t, names)
		if err != nil {
			return n, err
		}
		if err := meta.SetMeta(ctx, dekPrefix+t, w); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// legacyNames reports whether the tenant's data key predates sealed names
// (wrapped.Names), so that its store may hold names in the clear.
func (k *Keyring) legacyNames(ctx context.Context, tenant string) (bool, error) {
	tk, err := k.key(ctx, tenant)
	if err != nil {
		return false, err
	}
	return tk.legacy.Load(), nil
}

// markNamesSealed records on the tenant's wrapped key that the tenant
// holds no name in the clear any more (ResealNames), so lookups stop
// trying the clear form.
func (k *Keyring) markNamesSealed(ctx context.Context, tenant string) error {
	tk, err := k.key(ctx, tenant)
	if err != nil || !tk.legacy.Load() {
		return err
	}
	w, err := wrapKey(k.master, tk.dek, tenant, true)
	if err != nil {
		return err
	}
	if err := k.meta.SetMeta(lore.WithoutFence(ctx), dekPrefix+tenant, w); err != nil {
		return err
	}
	tk.legacy.Store(false)
	return nil
}
