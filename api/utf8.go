package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/lore-memory/lore"
)

// checkBodyUTF8 returns EINVALID naming the field (messages[0].content)
// whose string holds the first invalid UTF-8 byte of a JSON body, or nil
// when the body is valid UTF-8. encoding/json would silently replace such
// bytes with U+FFFD and store text the caller never sent.
func checkBodyUTF8(body []byte) error {
	if utf8.Valid(body) {
		return nil
	}
	bad := invalidUTF8Offset(body)
	if field := fieldAt(body, bad); field != "" {
		return lore.Errorf(lore.EINVALID, "%s is not valid UTF-8", field)
	}
	return lore.Errorf(lore.EINVALID, "request body is not valid UTF-8 (byte %d)", bad)
}

// invalidUTF8Offset returns the offset of the first byte that does not
// begin a valid UTF-8 sequence.
func invalidUTF8Offset(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// pathElem is one step into a JSON document: an object key or an array
// index.
type pathElem struct {
	key   string
	index int
	array bool
	// wantKey: the object's next token is a key. The key itself cannot say
	// so, since "" is a valid key.
	wantKey bool
}

// fieldAt walks the JSON tokens of body and names the value, or the object
// key, whose token spans offset, as a path like messages[2].content.
func fieldAt(body []byte, offset int) string {
	dec := json.NewDecoder(bytes.NewReader(body))
	var path []pathElem
	inKeyPos := func() bool { return len(path) > 0 && path[len(path)-1].wantKey }
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		spans := int64(offset) >= start && int64(offset) < dec.InputOffset()
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			if len(path) == 0 {
				return "" // the decoder refuses a stray closer; be sure
			}
			path = path[:len(path)-1]
			valueDone(path)
			continue
		}
		if inKeyPos() {
			// Token in key position: the string is a field name.
			path[len(path)-1].key = fmt.Sprint(tok)
			path[len(path)-1].wantKey = false
			if spans {
				return render(path) + " (a field name)"
			}
			continue
		}
		// A value begins: in an array it takes the next index.
		if len(path) > 0 && path[len(path)-1].array {
			path[len(path)-1].index++
		}
		switch tok {
		case json.Delim('{'):
			path = append(path, pathElem{wantKey: true})
		case json.Delim('['):
			path = append(path, pathElem{array: true, index: -1})
		default:
			if spans {
				return render(path)
			}
			valueDone(path)
		}
	}
}

// valueDone records that the value of the innermost object's current key is
// complete, so the next token there is a key.
func valueDone(path []pathElem) {
	if len(path) > 0 && !path[len(path)-1].array {
		path[len(path)-1].key, path[len(path)-1].wantKey = "", true
	}
}

// render formats a path: keys joined by dots, indexes in brackets.
func render(path []pathElem) string {
	var b bytes.Buffer
	for _, p := range path {
		if p.array {
			fmt.Fprintf(&b, "[%d]", max(p.index, 0))
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p.key)
	}
	return b.String()
}
