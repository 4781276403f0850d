package api

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lore-memory/lore"
)

func TestCheckBodyUTF8(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"valid", `{"query":"café"}`, ""},
		{"top-level field", "{\"user_id\":\"u\",\"query\":\"ab\xffcd\"}", "query is not valid UTF-8"},
		{"nested in array", "{\"messages\":[{\"role\":\"user\",\"content\":\"ok\"},{\"role\":\"user\",\"content\":\"x\xc3\"}]}", "messages[1].content is not valid UTF-8"},
		{"metadata value", "{\"metadata\":{\"a\":[1,\"\xfe\"]}}", "metadata.a[1] is not valid UTF-8"},
		{"field name", "{\"us\xffer\":1}", "(a field name)"},
		{"after nested object", "{\"metadata\":{\"x\":{\"y\":1}},\"text\":\"\xff\"}", "text is not valid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkBodyUTF8([]byte(tt.body))
			if tt.want == "" {
				if err != nil {
					t.Fatalf("checkBodyUTF8=%v, want nil", err)
				}
				return
			}
			if lore.ErrorCode(err) != lore.EINVALID {
				t.Fatalf("code=%q (err %v), want %q", lore.ErrorCode(err), err, lore.EINVALID)
			}
			if msg := lore.ErrorMessage(err); !strings.Contains(msg, tt.want) {
				t.Errorf("message=%q, want it to contain %q", msg, tt.want)
			}
		})
	}
}

// FuzzCheckBodyUTF8: any body is either valid UTF-8 (nil) or refused with
// EINVALID, and locating the field never panics.
func FuzzCheckBodyUTF8(f *testing.F) {
	for _, s := range []string{`{"a":"b"}`, "{\"a\":[\"\xff\"]}", "{\"\xfe\":1}", `[1,{"x":[[]]}]`, "\xff", `{"a":`, "{\"a\":{\"b\":\"\xc3\"}}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		err := checkBodyUTF8(body)
		if utf8.Valid(body) != (err == nil) {
			t.Fatalf("checkBodyUTF8(%q)=%v, want an error exactly for invalid UTF-8", body, err)
		}
		if err != nil && lore.ErrorCode(err) != lore.EINVALID {
			t.Fatalf("code=%q, want invalid", lore.ErrorCode(err))
		}
	})
}
