// Package temporal finds date expressions in English and Chinese text and
// resolves them against a reference time: "yesterday", "last week", "two
// years ago", "in May 2023", "on 8 May", 昨天, 上個月, 兩週前 (zh.go). The rules extractor dates facts with it and
// query analysis turns "what did I do last week" into a time range.
package temporal

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Span is a resolved date expression: the half-open interval [Start, End)
// in the reference time's location.
type Span struct {
	Text  string    // the expression as written
	Start time.Time // inclusive
	End   time.Time // exclusive
	// Offset is the byte offset of Text in the input.
	Offset int
}

// Mid returns the middle of the span, a point estimate for "when".
func (s Span) Mid() time.Time { return s.Start.Add(s.End.Sub(s.Start) / 2) }

var (
	monthNames = map[string]time.Month{
		"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
		"may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
		"september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11,
		"december": 12, "dec": 12,
	}
	weekdayNames = map[string]time.Weekday{
		"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday,
		"thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday,
	}
	numberWords = map[string]int{
		"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
		"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "a couple": 2,
		"couple of": 2, "a few": 3, "few": 3, "several": 3,
	}
)

const (
	monthRe   = `(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)`
	weekdayRe = `(sunday|monday|tuesday|wednesday|thursday|friday|saturday)`
	numRe     = `(\d{1,3}|a couple of|a couple|couple of|a few|few|several|an|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)`
	unitRe    = `(day|week|month|year|weekend)s?`
	ordRe     = `(\d{1,2})(?:st|nd|rd|th)?`
	// holidayRe names the holidays holidayDate knows; an apostrophe is
	// optional ("valentines day").
	holidayRe = `(valentine['’]?s day|valentine['’]?s|christmas eve|christmas day|christmas|xmas|new year['’]?s eve|new year['’]?s day|new year['’]?s|halloween|thanksgiving|easter sunday|easter|mother['’]?s day|father['’]?s day|memorial day|labor day|independence day|(?:st\.?|saint) patrick['’]?s day)`
)

// pattern pairs an expression with the function that resolves a match.
// Patterns are tried in order; earlier ones win on overlap, so longer and
// more specific forms come first.
type pattern struct {
	re      *regexp.Regexp
	resolve func(m []string, ref time.Time) (time.Time, time.Time, bool)
}

// patterns are compiled once; they are never modified after init.
var patterns = []pattern{
	// Christmas, last Valentine's Day, Thanksgiving 2022
	{regexp.MustCompile(`\b(?:(last|this|next) )?` + holidayRe + `(?:,? ((?:19|20)\d{2}))?\b`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return holiday(ref, m[1], m[2], m[3])
	}},
	// 2023-05-08
	{regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})\b`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return dayOf(atoi(m[1]), time.Month(atoi(m[2])), atoi(m[3]), ref)
	}},
	// 8 May 2023, 8th of May, 2023
	{regexp.MustCompile(`\b` + ordRe + `(?: of)? ` + monthRe + `,? (\d{4})\b`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return dayOf(atoi(m[3]), monthNames[m[2]], atoi(m[1]), ref)
	}},
	// May 8, 2023
	{regexp.MustCompile(`\b` + monthRe + ` ` + ordRe + `,? (\d{4})\b`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return dayOf(atoi(m[3]), monthNames[m[1]], atoi(m[2]), ref)
	}},
	// May 2023
	{regexp.MustCompile(`\b` + monthRe + `,? (\d{4})\b`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return monthOf(atoi(m[2]), monthNames[m[1]], ref)
	}},
	// 8 May / 8th of May (the most recent one not after ref)
	{regexp.MustCompile(`\b` + ordRe + `(?: of)? ` + monthRe + `\b`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return recentDay(monthNames[m[2]], atoi(m[1]), ref)
	}},
	// May 8
	{regexp.MustCompile(`\b` + monthRe + ` ` + ordRe + `\b`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return recentDay(monthNames[m[1]], atoi(m[2]), ref)
	}},
	// the day before yesterday / the day after tomorrow
	{regexp.MustCompile(`\bthe day before yesterday\b`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return days(ref, -2, 1)
	}},
	{regexp.MustCompile(`\bthe day after tomorrow\b`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return days(ref, 2, 1)
	}},
	{regexp.MustCompile(`\b(today|tonight|this morning|this afternoon|this evening)\b`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return days(ref, 0, 1)
	}},
	{regexp.MustCompile(`\b(yesterday|last night)\b`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return days(ref, -1, 1)
	}},
	{regexp.MustCompile(`\btomorrow\b`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return days(ref, 1, 1)
	}},
	// two weeks ago, a few days ago
	{regexp.MustCompile(`\b` + numRe + ` ` + unitRe + ` ago\b`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		n, ok := count(m[1])
		if !ok {
			return time.Time{}, time.Time{}, false
		}
		return unitsFrom(ref, m[2], -n)
	}},
	// in two weeks, in a few days (future)
	{regexp.MustCompile(`\bin ` + numRe + ` ` + unitRe + `\b`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		n, ok := count(m[1])
		if !ok {
			return time.Time{}, time.Time{}, false
		}
		return unitsFrom(ref, m[2], n)
	}},
	// last/this/next week|month|year|weekend
	{regexp.MustCompile(`\b(last|past|previous|this|next|coming) (week|month|year|weekend)\b`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return relativeUnit(ref, m[1], m[2])
	}},
	// last/this/next summer
	{regexp.MustCompile(`\b(last|this|next) (spring|summer|fall|autumn|winter)\b`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return season(ref, m[1], m[2])
	}},
	// last/this/next/on Monday
	{regexp.MustCompile(`\b(last|this|next|on|past)? ?` + weekdayRe + `\b`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return weekday(ref, m[1], weekdayNames[m[2]])
	}},
	// in May, last May, this May, next May
	{regexp.MustCompile(`\b(in|last|this|next|since|during) ` + monthRe + `\b`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return monthRelative(ref, m[1], monthNames[m[2]])
	}},
	// in 2019, since 2019, back in 2019
	{regexp.MustCompile(`\b(in|since|during|from|of|by) ((?:19|20)\d{2})\b`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		y := atoi(m[2])
		start := time.Date(y, 1, 1, 0, 0, 0, 0, ref.Location())
		return start, start.AddDate(1, 0, 0), true
	}},
	// recently, lately: the last 30 days
	{regexp.MustCompile(`\b(recently|lately)\b`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		s, e, _ := days(ref, -30, 31)
		return s, e, true
	}},
}

// Parse returns the date expressions found in text, resolved against ref,
// in order of appearance. Overlapping matches keep the earlier pattern.
func Parse(text string, ref time.Time) []Span {
	lower := lowerSameLength(text)
	taken := make([]bool, len(lower)+1)
	var spans []Span
	all := patterns
	if hasHan(text) {
		all = append(all[:len(all):len(all)], zhPatterns...)
	}
	for _, p := range all {
		for _, idx := range p.re.FindAllStringSubmatchIndex(lower, -1) {
			start, end := idx[0], idx[1]
			if start < len(lower) && lower[start] == ' ' {
				start++
			}
			if overlaps(taken, start, end) {
				continue
			}
			m := make([]string, len(idx)/2)
			for i := range m {
				if idx[2*i] >= 0 {
					m[i] = lower[idx[2*i]:idx[2*i+1]]
				}
			}
			s, e, ok := p.resolve(m, ref)
			if !ok {
				continue
			}
			for i := start; i < end; i++ {
				taken[i] = true
			}
			spans = append(spans, Span{Text: text[start:end], Start: s, End: e, Offset: start})
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].Offset < spans[j].Offset })
	return spans
}

// lowerSameLength lowercases text rune by rune, keeping a rune whose lower
// case has another UTF-8 length ("Ⱥ" → "ⱥ" grows a byte), so that offsets
// into the result are offsets into text: the spans slice text with them.
// Invalid bytes stay as they are.
func lowerSameLength(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if l := unicode.ToLower(r); r != utf8.RuneError && l != r && utf8.RuneLen(l) == size {
			b.WriteRune(l)
		} else {
			b.WriteString(text[i : i+size])
		}
		i += size
	}
	return b.String()
}

func overlaps(taken []bool, start, end int) bool {
	for i := start; i < end; i++ {
		if taken[i] {
			return true
		}
	}
	return false
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func count(s string) (int, bool) {
	if n, ok := numberWords[s]; ok {
		return n, true
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n > 0 && n < 1000
}

func midnight(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())
}

func days(ref time.Time, offset, length int) (time.Time, time.Time, bool) {
	start := midnight(ref).AddDate(0, 0, offset)
	return start, start.AddDate(0, 0, length), true
}

func dayOf(y int, m time.Month, d int, ref time.Time) (time.Time, time.Time, bool) {
	if m < 1 || m > 12 || d < 1 || d > 31 || y < 1000 {
		return time.Time{}, time.Time{}, false
	}
	start := time.Date(y, m, d, 0, 0, 0, 0, ref.Location())
	if start.Day() != d { // 31 February and the like
		return time.Time{}, time.Time{}, false
	}
	return start, start.AddDate(0, 0, 1), true
}

func monthOf(y int, m time.Month, ref time.Time) (time.Time, time.Time, bool) {
	if m < 1 || m > 12 || y < 1000 {
		return time.Time{}, time.Time{}, false
	}
	start := time.Date(y, m, 1, 0, 0, 0, 0, ref.Location())
	return start, start.AddDate(0, 1, 0), true
}

// recentDay resolves a day-and-month without a year to its latest
// occurrence not after ref: conversations mostly talk about the past.
func recentDay(m time.Month, d int, ref time.Time) (time.Time, time.Time, bool) {
	s, e, ok := dayOf(ref.Year(), m, d, ref)
	if ok && s.After(ref) {
		return dayOf(ref.Year()-1, m, d, ref)
	}
	return s, e, ok
}

func weekStart(t time.Time) time.Time {
	// Weeks start on Monday.
	offset := (int(t.Weekday()) + 6) % 7
	return midnight(t).AddDate(0, 0, -offset)
}

func unitsFrom(ref time.Time, unit string, n int) (time.Time, time.Time, bool) {
	switch unit {
	case "day":
		return days(ref, n, 1)
	case "week":
		start := weekStart(ref).AddDate(0, 0, 7*n)
		return start, start.AddDate(0, 0, 7), true
	case "weekend":
		sat := weekStart(ref).AddDate(0, 0, 5+7*n)
		return sat, sat.AddDate(0, 0, 2), true
	case "month":
		start := time.Date(ref.Year(), ref.Month(), 1, 0, 0, 0, 0, ref.Location()).AddDate(0, n, 0)
		return start, start.AddDate(0, 1, 0), true
	case "year":
		start := time.Date(ref.Year()+n, 1, 1, 0, 0, 0, 0, ref.Location())
		return start, start.AddDate(1, 0, 0), true
	}
	return time.Time{}, time.Time{}, false
}

func direction(word string) int {
	switch word {
	case "last", "past", "previous":
		return -1
	case "next", "coming":
		return 1
	}
	return 0
}

func relativeUnit(ref time.Time, which, unit string) (time.Time, time.Time, bool) {
	return unitsFrom(ref, unit, direction(which))
}

func season(ref time.Time, which, name string) (time.Time, time.Time, bool) {
	startMonth := map[string]time.Month{"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}[name]
	y := ref.Year()
	start := time.Date(y, startMonth, 1, 0, 0, 0, 0, ref.Location())
	// "this winter" in January means the winter that began last December.
	if startMonth == 12 && ref.Month() < 3 {
		start = start.AddDate(-1, 0, 0)
	}
	switch direction(which) {
	case -1:
		if !start.AddDate(0, 3, 0).Before(ref) || which == "last" && start.Before(ref) && start.AddDate(0, 3, 0).After(ref) {
			start = start.AddDate(-1, 0, 0)
		}
	case 1:
		if !start.After(ref) {
			start = start.AddDate(1, 0, 0)
		}
	}
	return start, start.AddDate(0, 3, 0), true
}

func weekday(ref time.Time, which string, wd time.Weekday) (time.Time, time.Time, bool) {
	today := midnight(ref)
	diff := int(wd) - int(today.Weekday())
	switch which {
	case "next":
		if diff <= 0 {
			diff += 7
		}
	case "this":
		// This Friday: within the current Monday-based week.
		diff = (int(wd)+6)%7 - (int(today.Weekday())+6)%7
	default: // last, on, past, bare: the most recent one before today
		if diff >= 0 {
			diff -= 7
		}
	}
	start := today.AddDate(0, 0, diff)
	return start, start.AddDate(0, 0, 1), true
}

func monthRelative(ref time.Time, which string, m time.Month) (time.Time, time.Time, bool) {
	y := ref.Year()
	switch which {
	case "last":
		if m >= ref.Month() {
			y--
		}
	case "next":
		if m <= ref.Month() {
			y++
		}
	case "this":
	default: // in, since, during: the latest such month not after ref
		if m > ref.Month() {
			y--
		}
	}
	return monthOf(y, m, ref)
}

// holiday resolves a holiday to its day: in the year given, else the
// occurrence "last" (before ref's day), "next" (after it) or "this" (in
// ref's year) names, else the latest one not after ref.
func holiday(ref time.Time, which, name, year string) (time.Time, time.Time, bool) {
	name = strings.NewReplacer("’", "", "'", "", ".", "").Replace(name)
	on := func(y int) time.Time {
		m, d := holidayDate(name, y)
		return time.Date(y, m, d, 0, 0, 0, 0, ref.Location())
	}
	today := midnight(ref)
	var start time.Time
	switch {
	case year != "":
		start = on(atoi(year))
	case which == "this":
		start = on(ref.Year())
	case which == "next":
		if start = on(ref.Year()); !start.After(today) {
			start = on(ref.Year() + 1)
		}
	case which == "last":
		if start = on(ref.Year()); !start.Before(today) {
			start = on(ref.Year() - 1)
		}
	default:
		if start = on(ref.Year()); start.After(today) {
			start = on(ref.Year() - 1)
		}
	}
	return start, start.AddDate(0, 0, 1), true
}

// holidayDate returns the month and day of a holiday (as holidayRe names
// it, apostrophes and dots removed) in year y. Where countries differ, the
// date is the United States'.
func holidayDate(name string, y int) (time.Month, int) {
	switch name {
	case "valentines day", "valentines":
		return time.February, 14
	case "christmas eve":
		return time.December, 24
	case "christmas day", "christmas", "xmas":
		return time.December, 25
	case "new years eve":
		return time.December, 31
	case "halloween":
		return time.October, 31
	case "independence day":
		return time.July, 4
	case "st patricks day", "saint patricks day":
		return time.March, 17
	case "thanksgiving":
		return time.November, nthWeekday(y, time.November, time.Thursday, 4)
	case "mothers day":
		return time.May, nthWeekday(y, time.May, time.Sunday, 2)
	case "fathers day":
		return time.June, nthWeekday(y, time.June, time.Sunday, 3)
	case "memorial day":
		return time.May, lastWeekday(y, time.May, time.Monday)
	case "labor day":
		return time.September, nthWeekday(y, time.September, time.Monday, 1)
	case "easter", "easter sunday":
		return easter(y)
	}
	return time.January, 1 // new year's (day)
}

// nthWeekday returns the day of month of the n-th (from 1) wd of month m
// in year y.
func nthWeekday(y int, m time.Month, wd time.Weekday, n int) int {
	first := time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	return 1 + (int(wd)-int(first.Weekday())+7)%7 + 7*(n-1)
}

// lastWeekday returns the day of month of the last wd of month m in year y.
func lastWeekday(y int, m time.Month, wd time.Weekday) int {
	last := time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC)
	return last.Day() - (int(last.Weekday())-int(wd)+7)%7
}

// easter returns Easter Sunday of year y (Gregorian; the anonymous
// computus).
func easter(y int) (time.Month, int) {
	a, b, c := y%19, y/100, y%100
	d, e := b/4, b%4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i, k := c/4, c%4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	month := (h + l - 7*m + 114) / 31
	day := (h+l-7*m+114)%31 + 1
	return time.Month(month), day
}
