package lore

import (
	"testing"
)

// FuzzParseTime: any value either parses or is EINVALID naming the field.
func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"2024-05-01T15:04:05Z", "2024-05-01", "2024-05-01T15:04:05", "2024-13-01", "", "tomorrow", "2024-05-01T15:04:05+25:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		got, err := ParseTime("created_at", v)
		switch {
		case err != nil && ErrorCode(err) != EINVALID:
			t.Fatalf("ParseTime(%q) error code %q, want invalid", v, ErrorCode(err))
		case err == nil && v != "" && got == nil:
			t.Fatalf("ParseTime(%q)=nil without an error", v)
		}
	})
}
