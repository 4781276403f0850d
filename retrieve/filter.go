package retrieve

import (
	"bytes"
	"encoding/json"
	"math"
	"sort"
	"time"

	"github.com/lore-memory/lore"
)

// Filter is a metadata filter parsed from the API's JSON: {"key": value}
// (equality), {"key": {"in": [..]}}, {"key": {"gte": x, "lte": y, "gt": ..,
// "lt": ..}}, all ANDed. Values are strings, numbers or booleans; range bounds
// are numbers or RFC 3339 times. The zero Filter matches everything.
type Filter struct {
	conds []condition
}

// condition is one key's test.
type condition struct {
	key string
	op  string // "eq", "in" or "range"
	// vals holds the value for eq and the members for in.
	vals []scalar
	// bounds are the range ends keyed by gte, gt, lte, lt.
	bounds map[string]scalar
}

// scalar is a filter operand: exactly one of its kinds is set.
type scalar struct {
	kind string // "string", "number", "bool", "time"
	s    string
	n    float64
	b    bool
	t    time.Time
}

// isRangeOp reports whether op is an operator of a range condition.
func isRangeOp(op string) bool {
	return op == "gte" || op == "gt" || op == "lte" || op == "lt"
}

// ParseFilter parses a filter from JSON. Empty input and null give a nil
// Filter. Anything malformed is EINVALID naming the offending key.
func ParseFilter(raw json.RawMessage) (*Filter, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, lore.Errorf(lore.EINVALID, "filters must be a JSON object of metadata keys")
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	// Sorted so that the first offending key reported is deterministic.
	sort.Strings(keys)
	f := &Filter{}
	for _, k := range keys {
		if k == "" {
			return nil, lore.Errorf(lore.EINVALID, "filters: empty metadata key")
		}
		c, err := parseCondition(k, obj[k])
		if err != nil {
			return nil, err
		}
		f.conds = append(f.conds, c)
	}
	return f, nil
}

func parseCondition(key string, raw json.RawMessage) (condition, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '{' {
		var ops map[string]json.RawMessage
		if err := json.Unmarshal(raw, &ops); err != nil {
			return condition{}, lore.Errorf(lore.EINVALID, "filters.%s: %v", key, err)
		}
		if len(ops) == 0 {
			return condition{}, lore.Errorf(lore.EINVALID, "filters.%s: empty operator object", key)
		}
		if in, ok := ops["in"]; ok {
			if len(ops) != 1 {
				return condition{}, lore.Errorf(lore.EINVALID, "filters.%s: \"in\" cannot be combined with other operators", key)
			}
			var items []json.RawMessage
			if err := json.Unmarshal(in, &items); err != nil {
				return condition{}, lore.Errorf(lore.EINVALID, "filters.%s: \"in\" takes an array", key)
			}
			c := condition{key: key, op: "in"}
			for _, it := range items {
				v, err := parseScalar(it)
				if err != nil {
					return condition{}, lore.Errorf(lore.EINVALID, "filters.%s: \"in\": %s", key, err.Error())
				}
				c.vals = append(c.vals, v)
			}
			return c, nil
		}
		c := condition{key: key, op: "range", bounds: map[string]scalar{}}
		kind := ""
		for op, v := range ops {
			if !isRangeOp(op) {
				return condition{}, lore.Errorf(lore.EINVALID, "filters.%s: unknown operator %q (want in, gte, gt, lte or lt)", key, op)
			}
			b, err := parseBound(v)
			if err != nil {
				return condition{}, lore.Errorf(lore.EINVALID, "filters.%s.%s: %s", key, op, err.Error())
			}
			if kind != "" && b.kind != kind {
				return condition{}, lore.Errorf(lore.EINVALID, "filters.%s: range bounds mix numbers and times", key)
			}
			kind = b.kind
			c.bounds[op] = b
		}
		return c, nil
	}
	v, err := parseScalar(raw)
	if err != nil {
		return condition{}, lore.Errorf(lore.EINVALID, "filters.%s: %s", key, err.Error())
	}
	return condition{key: key, op: "eq", vals: []scalar{v}}, nil
}

// filterValueError is the message of a value a filter cannot hold.
type filterValueError string

func (e filterValueError) Error() string { return string(e) }

func parseScalar(raw json.RawMessage) (scalar, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return scalar{}, filterValueError("not valid JSON")
	}
	switch x := v.(type) {
	case string:
		return scalar{kind: "string", s: x}, nil
	case bool:
		return scalar{kind: "bool", b: x}, nil
	case json.Number:
		n, err := x.Float64()
		if err != nil || math.IsInf(n, 0) {
			return scalar{}, filterValueError("number out of range")
		}
		return scalar{kind: "number", n: n}, nil
	}
	return scalar{}, filterValueError("value must be a string, number or boolean")
}

func parseBound(raw json.RawMessage) (scalar, error) {
	v, err := parseScalar(raw)
	if err != nil {
		return scalar{}, err
	}
	switch v.kind {
	case "number":
		return v, nil
	case "string":
		t, err := time.Parse(time.RFC3339Nano, v.s)
		if err != nil {
			return scalar{}, filterValueError("range bound must be a number or an RFC 3339 time")
		}
		return scalar{kind: "time", t: t}, nil
	}
	return scalar{}, filterValueError("range bound must be a number or an RFC 3339 time")
}

// Match reports whether metadata satisfies every condition. A missing key, or
// a value of a type the condition cannot compare, does not match. A nil
// Filter matches everything.
func (f *Filter) Match(metadata map[string]any) bool {
	if f == nil {
		return true
	}
	for _, c := range f.conds {
		v, ok := metadata[c.key]
		if !ok {
			return false
		}
		if !c.match(v) {
			return false
		}
	}
	return true
}

// Empty reports whether the filter has no conditions.
func (f *Filter) Empty() bool { return f == nil || len(f.conds) == 0 }

func (c condition) match(v any) bool {
	switch c.op {
	case "eq", "in":
		for _, want := range c.vals {
			if equalScalar(want, v) {
				return true
			}
		}
		return false
	case "range":
		for op, b := range c.bounds {
			cmp, ok := compareBound(v, b)
			if !ok {
				return false
			}
			switch op {
			case "gte":
				ok = cmp >= 0
			case "gt":
				ok = cmp > 0
			case "lte":
				ok = cmp <= 0
			case "lt":
				ok = cmp < 0
			}
			if !ok {
				return false
			}
		}
		return true
	}
	return false
}

// equalScalar compares a filter operand with a metadata value as decoded
// from JSON or set from Go.
func equalScalar(want scalar, v any) bool {
	switch want.kind {
	case "string":
		s, ok := v.(string)
		return ok && s == want.s
	case "bool":
		b, ok := v.(bool)
		return ok && b == want.b
	case "number":
		n, ok := toNumber(v)
		return ok && n == want.n
	}
	return false
}

// compareBound returns the sign of v - b, and false when v is not of b's kind.
func compareBound(v any, b scalar) (int, bool) {
	switch b.kind {
	case "number":
		n, ok := toNumber(v)
		if !ok {
			return 0, false
		}
		switch {
		case n < b.n:
			return -1, true
		case n > b.n:
			return 1, true
		}
		return 0, true
	case "time":
		t, ok := toTime(v)
		if !ok {
			return 0, false
		}
		return t.Compare(b.t), true
	}
	return 0, false
}

func toNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int32:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint:
		return float64(x), true
	case uint32:
		return float64(x), true
	case uint64:
		return float64(x), true
	case json.Number:
		n, err := x.Float64()
		return n, err == nil
	}
	return 0, false
}

func toTime(v any) (time.Time, bool) {
	switch x := v.(type) {
	case time.Time:
		return x, true
	case string:
		t, err := time.Parse(time.RFC3339Nano, x)
		return t, err == nil
	}
	return time.Time{}, false
}
