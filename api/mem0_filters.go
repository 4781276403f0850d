package api

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/retrieve"
)

// mem0Filters is a mem0 filter (v1 flat or v2 with AND/OR) read into what
// Lore can honour: one scope, a metadata filter in Lore's syntax and a time
// range. What Lore cannot honour is refused with EINVALID naming it, never
// dropped.
type mem0Filters struct {
	UserID, AgentID, RunID string
	// Meta holds Lore filter conditions by metadata key (see
	// retrieve.ParseFilter).
	Meta map[string]json.RawMessage
	// Since and Until bound created_at (Lore: an episode's occurred_at, a
	// fact's seen range); Until is exclusive.
	Since, Until *time.Time
}

// entity sets one of the scope fields, refusing a second, different value.
func (f *mem0Filters) entity(field, value string) error {
	var dst *string
	switch field {
	case "user_id":
		dst = &f.UserID
	case "agent_id":
		dst = &f.AgentID
	case "run_id":
		dst = &f.RunID
	}
	if value == "" {
		return nil
	}
	if *dst != "" && *dst != value {
		return lore.Errorf(lore.EINVALID, "filters: %s is given twice (%q and %q); Lore reads one scope per request", field, *dst, value)
	}
	*dst = value
	return nil
}

// parseMem0Filters reads raw (absent or null: no filter) into f.
func parseMem0Filters(raw json.RawMessage, f *mem0Filters) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return lore.Errorf(lore.EINVALID, "filters must be a JSON object")
	}
	return f.add("filters", obj)
}

// add merges one filter object; path names it in messages.
func (f *mem0Filters) add(path string, obj map[string]json.RawMessage) error {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := obj[k]
		at := k
		if path != "" {
			at = path + "." + k
		}
		switch k {
		case "AND", "OR":
			var list []map[string]json.RawMessage
			if err := json.Unmarshal(v, &list); err != nil {
				return lore.Errorf(lore.EINVALID, "%s must be an array of filter objects", at)
			}
			// OR over one condition is that condition; over several it
			// would read several scopes or a union Lore does not offer.
			if k == "OR" && len(list) > 1 {
				return lore.Errorf(lore.EINVALID, "%s with more than one condition is not supported: Lore reads one scope per request and ANDs metadata conditions", at)
			}
			for i, sub := range list {
				if err := f.add(at+"["+strconv.Itoa(i)+"]", sub); err != nil {
					return err
				}
			}
		case "NOT":
			return lore.Errorf(lore.EINVALID, "%s is not supported", at)
		case "user_id", "agent_id", "run_id":
			val, err := entityValue(at, v)
			if err != nil {
				return err
			}
			if err := f.entity(k, val); err != nil {
				return err
			}
		case "app_id":
			return lore.Errorf(lore.EINVALID, "%s is not supported: Lore scopes memories by tenant (the API key), user, agent and run", at)
		case "created_at", "updated_at", "timestamp":
			if err := f.timeRange(at, v); err != nil {
				return err
			}
		case "metadata":
			var meta map[string]json.RawMessage
			if err := json.Unmarshal(v, &meta); err != nil {
				return lore.Errorf(lore.EINVALID, "%s must be an object of metadata keys", at)
			}
			for mk, mv := range meta {
				if err := f.meta(at+"."+mk, mk, mv); err != nil {
					return err
				}
			}
		case "categories", "keywords", "memory_ids":
			return lore.Errorf(lore.EINVALID, "%s is not supported: Lore has no %s filter", at, strings.ReplaceAll(k, "_", " "))
		default:
			// A v1 filter's other keys are metadata keys.
			if err := f.meta(at, k, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// entityValue reads an entity filter: a string, {"eq": s} or {"in": [s]}.
func entityValue(at string, raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		if s == "*" {
			return "", lore.Errorf(lore.EINVALID, "%s: the wildcard is not supported; Lore never reads across users", at)
		}
		return s, nil
	}
	var ops map[string]json.RawMessage
	if err := json.Unmarshal(raw, &ops); err != nil || len(ops) != 1 {
		return "", lore.Errorf(lore.EINVALID, "%s must be a string, {\"eq\": …} or {\"in\": [one value]}", at)
	}
	if eq, ok := ops["eq"]; ok {
		return entityValue(at+".eq", eq)
	}
	if in, ok := ops["in"]; ok {
		var list []string
		if err := json.Unmarshal(in, &list); err != nil || len(list) != 1 {
			return "", lore.Errorf(lore.EINVALID, "%s.in must hold exactly one value: Lore reads one scope per request", at)
		}
		return list[0], nil
	}
	return "", lore.Errorf(lore.EINVALID, "%s: only eq and in (one value) are supported on a scope field", at)
}

// timeRange reads {"gte"|"gt"|"lte"|"lt": date} into Since and Until. A
// date without a time covers its whole day.
func (f *mem0Filters) timeRange(at string, raw json.RawMessage) error {
	var ops map[string]string
	if err := json.Unmarshal(raw, &ops); err != nil {
		return lore.Errorf(lore.EINVALID, "%s must be an object of gte, gt, lte or lt and a date", at)
	}
	for op, v := range ops {
		t, dateOnly, err := parseMem0Date(at+"."+op, v)
		if err != nil {
			return err
		}
		switch op {
		case "gte":
			f.Since = &t
		case "gt":
			if dateOnly {
				t = t.AddDate(0, 0, 1)
			} else {
				t = t.Add(time.Microsecond)
			}
			f.Since = &t
		case "lt":
			f.Until = &t
		case "lte":
			if dateOnly {
				t = t.AddDate(0, 0, 1)
			} else {
				t = t.Add(time.Microsecond)
			}
			f.Until = &t
		default:
			return lore.Errorf(lore.EINVALID, "%s: unknown operator %q (want gte, gt, lte or lt)", at, op)
		}
	}
	return nil
}

// parseMem0Date reads YYYY-MM-DD or an RFC 3339 time (a time without a
// zone is UTC, as in mem0).
func parseMem0Date(field, v string) (time.Time, bool, error) {
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t, true, nil
	}
	if t, err := time.Parse("2006-01-02T15:04:05", v); err == nil {
		return t, false, nil
	}
	t, err := lore.ParseTime(field, v)
	if err != nil {
		return time.Time{}, false, err
	}
	if t == nil {
		return time.Time{}, false, lore.Errorf(lore.EINVALID, "%s is empty", field)
	}
	return *t, false, nil
}

// meta adds a metadata condition, refusing operators Lore's filter lacks.
func (f *mem0Filters) meta(at, key string, raw json.RawMessage) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '{' {
		var ops map[string]json.RawMessage
		if err := json.Unmarshal(raw, &ops); err != nil {
			return lore.Errorf(lore.EINVALID, "%s: %v", at, err)
		}
		if eq, ok := ops["eq"]; ok && len(ops) == 1 {
			raw = eq
		}
		for op := range ops {
			switch op {
			case "eq", "in", "gte", "gt", "lte", "lt":
			default:
				return lore.Errorf(lore.EINVALID, "%s: operator %q is not supported (Lore filters metadata with eq, in, gte, gt, lte and lt)", at, op)
			}
		}
	}
	if f.Meta == nil {
		f.Meta = map[string]json.RawMessage{}
	}
	if _, dup := f.Meta[key]; dup {
		return lore.Errorf(lore.EINVALID, "%s: metadata key %q is filtered twice", at, key)
	}
	f.Meta[key] = raw
	return nil
}

// loreFilter returns the metadata conditions as Lore's filter.
func (f *mem0Filters) loreFilter() (*retrieve.Filter, error) {
	if len(f.Meta) == 0 {
		return nil, nil
	}
	raw, err := json.Marshal(f.Meta)
	if err != nil {
		return nil, lore.Errorf(lore.EINVALID, "filters: %v", err)
	}
	return retrieve.ParseFilter(raw)
}
