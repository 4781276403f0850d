package lore

import (
	"testing"
	"time"
)

func TestParseTime(t *testing.T) {
	cases := []struct {
		value string
		want  time.Time
		nil   bool
		bad   bool
	}{
		{value: "", nil: true},
		{value: "2024-05-01", want: time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)},
		{value: "2024-05-01T15:04:05", want: time.Date(2024, 5, 1, 15, 4, 5, 0, time.UTC)},
		{value: "2024-05-01T15:04:05+02:00", want: time.Date(2024, 5, 1, 13, 4, 5, 0, time.UTC)},
		{value: "2024-05-01T15:04:05.5Z", want: time.Date(2024, 5, 1, 15, 4, 5, 5e8, time.UTC)},
		{value: "yesterday", bad: true},
		{value: "01/05/2024", bad: true},
	}
	for _, c := range cases {
		t.Run(c.value, func(t *testing.T) {
			got, err := ParseTime("at", c.value)
			switch {
			case c.bad:
				if ErrorCode(err) != EINVALID {
					t.Fatalf("ParseTime(%q) err=%v, want EINVALID", c.value, err)
				}
			case err != nil:
				t.Fatalf("ParseTime(%q): %v", c.value, err)
			case c.nil:
				if got != nil {
					t.Fatalf("ParseTime(%q)=%v, want nil", c.value, got)
				}
			case got == nil || !got.Equal(c.want):
				t.Fatalf("ParseTime(%q)=%v, want %v", c.value, got, c.want)
			}
		})
	}
}
