package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/lore-memory/lore"
)

// DefaultMaxBodyBytes bounds a request body when Server.MaxBodyBytes is zero.
const DefaultMaxBodyBytes = 2 << 20

// decodeBody reads the whole body, within the size limit, into dst. Unknown
// fields, wrong types and malformed JSON are EINVALID naming the field or the
// offset; a body over the limit is ETOOLARGE.
func (s *Server) decodeBody(c *gin.Context, dst any) error {
	limit := s.maxBodyBytes()
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, limit))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return lore.Errorf(lore.ETOOLARGE, "request body is larger than %d bytes", limit)
		}
		return lore.Errorf(lore.EINVALID, "request body could not be read")
	}
	if err := checkBodyUTF8(body); err != nil {
		return err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return lore.Errorf(lore.EINVALID, "request body is empty; a JSON object is required")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return jsonError(err)
	}
	if dec.More() {
		return lore.Errorf(lore.EINVALID, "request body holds more than one JSON value")
	}
	return nil
}

// jsonError turns a decoding error into an EINVALID that names what was
// wrong in the caller's terms.
func jsonError(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return lore.Errorf(lore.EINVALID, "malformed JSON at byte %d", syntax.Offset)
	case errors.As(err, &typ):
		if typ.Field == "" {
			return lore.Errorf(lore.EINVALID, "request body must be a JSON object, not %s", typ.Value)
		}
		return lore.Errorf(lore.EINVALID, "field %q must be %s, not %s", typ.Field, jsonTypeName(typ.Type.Kind().String()), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return lore.Errorf(lore.EINVALID, "malformed JSON: the body ends early")
	}
	// encoding/json reports unknown fields only as text: `json: unknown field "x"`.
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return lore.Errorf(lore.EINVALID, "unknown field %s", name)
	}
	var le *lore.Error
	if errors.As(err, &le) {
		return le
	}
	return lore.Errorf(lore.EINVALID, "invalid JSON body: %s", strings.TrimPrefix(err.Error(), "json: "))
}

// jsonTypeName names a Go kind the way a JSON client thinks of it.
func jsonTypeName(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "an integer"
	case "float32", "float64":
		return "a number"
	case "slice", "array":
		return "an array"
	case "map", "struct", "ptr":
		return "an object"
	}
	return "of another type"
}

// queryInt reads an optional integer query parameter that must lie in
// [lo, hi]; hi <= 0 means no upper bound.
func queryInt(c *gin.Context, name string, def, lo, hi int) (int, error) {
	raw, ok := c.GetQuery(name)
	if !ok || raw == "" {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil {
		return 0, lore.Errorf(lore.EINVALID, "%s must be an integer, got %q", name, raw)
	}
	if n < lo {
		return 0, lore.Errorf(lore.EINVALID, "%s must be at least %d, got %d", name, lo, n)
	}
	if hi > 0 && n > hi {
		return 0, lore.Errorf(lore.EINVALID, "%s must be at most %d, got %d", name, hi, n)
	}
	return n, nil
}

// queryBool reads an optional boolean query parameter.
func queryBool(c *gin.Context, name string) (bool, error) {
	raw, ok := c.GetQuery(name)
	if !ok || raw == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(raw)
	if err != nil {
		return false, lore.Errorf(lore.EINVALID, "%s must be true or false, got %q", name, raw)
	}
	return b, nil
}
