package api

import (
	"strings"
	"testing"

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
