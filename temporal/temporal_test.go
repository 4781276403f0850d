package temporal

import (
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	// Monday 8 May 2023, 13:56.
	ref := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		name       string
		text       string
		wantText   string
		start, end time.Time
	}{
		{"yesterday", "I went to a support group yesterday.", "yesterday", day(2023, 5, 7), day(2023, 5, 8)},
		{"today", "Today was great", "Today", day(2023, 5, 8), day(2023, 5, 9)},
		{"tomorrow", "see you tomorrow", "tomorrow", day(2023, 5, 9), day(2023, 5, 10)},
		{"day before yesterday", "the day before yesterday we met", "the day before yesterday", day(2023, 5, 6), day(2023, 5, 7)},
		{"last week", "She moved to Boston last week", "last week", day(2023, 5, 1), day(2023, 5, 8)},
		{"next month", "I start next month", "next month", day(2023, 6, 1), day(2023, 7, 1)},
		{"last year", "last year I ran a marathon", "last year", day(2022, 1, 1), day(2023, 1, 1)},
		{"this year", "this year is busy", "this year", day(2023, 1, 1), day(2024, 1, 1)},
		{"digits ago", "I adopted him 3 days ago", "3 days ago", day(2023, 5, 5), day(2023, 5, 6)},
		{"words ago", "two weeks ago I painted", "two weeks ago", day(2023, 4, 24), day(2023, 5, 1)},
		{"a few years ago", "a few years ago I lived there", "a few years ago", day(2020, 1, 1), day(2021, 1, 1)},
		{"a month ago", "about a month ago", "a month ago", day(2023, 4, 1), day(2023, 5, 1)},
		{"future in", "we leave in two days", "in two days", day(2023, 5, 10), day(2023, 5, 11)},
		{"last weekend", "last weekend we hiked", "last weekend", day(2023, 5, 6), day(2023, 5, 8)},
		{"last friday", "last Friday I went", "last Friday", day(2023, 5, 5), day(2023, 5, 6)},
		{"on sunday", "on Sunday we baked", "on Sunday", day(2023, 5, 7), day(2023, 5, 8)},
		{"next friday", "next Friday is the party", "next Friday", day(2023, 5, 12), day(2023, 5, 13)},
		{"iso date", "the deadline 2023-06-01 passed", "2023-06-01", day(2023, 6, 1), day(2023, 6, 2)},
		{"day month year", "on 8 May, 2023 at noon", "8 May, 2023", day(2023, 5, 8), day(2023, 5, 9)},
		{"month day year", "since July 4th, 2021", "July 4th, 2021", day(2021, 7, 4), day(2021, 7, 5)},
		{"month year", "in June 2022 I graduated", "June 2022", day(2022, 6, 1), day(2022, 7, 1)},
		{"day month no year, past", "on 20 April", "20 April", day(2023, 4, 20), day(2023, 4, 21)},
		{"day month no year, later month means last year", "on 20 December", "20 December", day(2022, 12, 20), day(2022, 12, 21)},
		{"in month, past", "in March we moved", "in March", day(2023, 3, 1), day(2023, 4, 1)},
		{"in month, later means last year", "in August we moved", "in August", day(2022, 8, 1), day(2022, 9, 1)},
		{"next month name, later this year", "next June", "next June", day(2023, 6, 1), day(2023, 7, 1)},
		{"next month name, passed this year", "next April", "next April", day(2024, 4, 1), day(2024, 5, 1)},
		{"in year", "I started painting in 2019", "in 2019", day(2019, 1, 1), day(2020, 1, 1)},
		{"last summer", "last summer we camped", "last summer", day(2022, 6, 1), day(2022, 9, 1)},
		{"recently", "I recently joined", "recently", day(2023, 4, 8), day(2023, 5, 9)},
		{"valentine's day", "we flew on Valentine's Day", "Valentine's Day", day(2023, 2, 14), day(2023, 2, 15)},
		{"valentines day, no apostrophe", "valentines day dinner", "valentines day", day(2023, 2, 14), day(2023, 2, 15)},
		{"christmas, later means last year", "at Christmas we skied", "Christmas", day(2022, 12, 25), day(2022, 12, 26)},
		{"next christmas", "next Christmas we ski", "next Christmas", day(2023, 12, 25), day(2023, 12, 26)},
		{"this halloween", "this Halloween I'll dress up", "this Halloween", day(2023, 10, 31), day(2023, 11, 1)},
		{"new year's eve", "on New Year’s Eve", "New Year’s Eve", day(2022, 12, 31), day(2023, 1, 1)},
		{"new year's", "since New Year's", "New Year's", day(2023, 1, 1), day(2023, 1, 2)},
		{"last easter", "last Easter we hid eggs", "last Easter", day(2023, 4, 9), day(2023, 4, 10)},
		{"easter with year", "Easter 2024 plans", "Easter 2024", day(2024, 3, 31), day(2024, 4, 1)},
		{"thanksgiving with year", "at Thanksgiving 2021", "Thanksgiving 2021", day(2021, 11, 25), day(2021, 11, 26)},
		{"mother's day, later means last year", "on Mother's Day", "Mother's Day", day(2022, 5, 8), day(2022, 5, 9)},
		{"father's day with year", "Father's Day, 2023", "Father's Day, 2023", day(2023, 6, 18), day(2023, 6, 19)},
		{"memorial day", "over Memorial Day", "Memorial Day", day(2022, 5, 30), day(2022, 5, 31)},
		{"labor day with year", "Labor Day 2023", "Labor Day 2023", day(2023, 9, 4), day(2023, 9, 5)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spans := Parse(tt.text, ref)
			if len(spans) != 1 {
				t.Fatalf("Parse(%q) gave %d spans %+v, want 1", tt.text, len(spans), spans)
			}
			s := spans[0]
			if s.Text != tt.wantText {
				t.Errorf("text=%q, want %q", s.Text, tt.wantText)
			}
			if !s.Start.Equal(tt.start) || !s.End.Equal(tt.end) {
				t.Errorf("span=[%s, %s), want [%s, %s)", s.Start.Format(time.DateOnly), s.End.Format(time.DateOnly),
					tt.start.Format(time.DateOnly), tt.end.Format(time.DateOnly))
			}
		})
	}
}

func TestParseNone(t *testing.T) {
	ref := time.Date(2023, 5, 8, 0, 0, 0, 0, time.UTC)
	for _, text := range []string{
		"I like painting and hiking.",
		"You may want to see it.",
		"I have 3 dogs",
	} {
		if spans := Parse(text, ref); len(spans) != 0 {
			t.Errorf("Parse(%q)=%+v, want none", text, spans)
		}
	}
}

func TestParseSeveral(t *testing.T) {
	ref := time.Date(2023, 5, 8, 0, 0, 0, 0, time.UTC)
	spans := Parse("Yesterday I called mom, and last week I saw Anna in 2022 photos", ref)
	var got []string
	for _, s := range spans {
		got = append(got, s.Text)
	}
	want := []string{"Yesterday", "last week", "in 2022"}
	if len(got) != len(want) {
		t.Fatalf("spans=%q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("spans[%d]=%q, want %q", i, got[i], want[i])
		}
	}
}

// TestParseRunesWhoseLowerCaseIsLonger: "Ⱥ" lowercases to a longer
// encoding; Parse used to slice the input with offsets into its lowercased
// copy and panic (found by FuzzParse).
func TestParseRunesWhoseLowerCaseIsLonger(t *testing.T) {
	ref := time.Date(2024, 5, 15, 12, 0, 0, 0, time.UTC)
	spans := Parse("ȺȺȺȺȺȺȺȺȺȺ LAST WEEK", ref)
	if len(spans) != 1 || spans[0].Text != "LAST WEEK" {
		t.Fatalf("Parse=%+v, want one span \"LAST WEEK\"", spans)
	}
}
