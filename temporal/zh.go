package temporal

import (
	"regexp"
	"strings"
	"time"
	"unicode"
)

// Chinese date expressions, Traditional and Simplified: 昨天, 上週/上周,
// 上個月/上个月, 去年, 兩週前/两周前, 2023年5月8日, 下週五/下周五 and their
// kin. Chinese has no word boundaries, so these patterns have no \b; they
// run only on text that holds a Han character (hasHan), so English text is
// parsed exactly as before.
//
// Weeks start on Monday, as in English here. Unlike English "next Friday"
// (the next Friday after today), 下週五 is the Friday of next week and 上週五
// the Friday of last week, as Chinese speakers mean them; a bare 週五/星期五
// is this week's.

const (
	// zhNumRe is a count in digits or Chinese numerals up to 99, or 幾/几
	// ("a few").
	zhNumRe = `(\d{1,3}|[一二兩两三四五六七八九十]{1,3}|幾|几|好幾|好几)`
	// zhWeekRe is the word for week: 週/周/星期/禮拜/礼拜 (個/个 may precede).
	zhWeekRe = `(?:個|个)?(?:週|周|星期|禮拜|礼拜)`
	// zhDayNumRe is a day or month number in digits or numerals.
	zhDayNumRe = `(\d{1,2}|[一二三四五六七八九十]{1,3})`
)

// zhWeekdays maps the weekday character after 週/星期/禮拜 to its weekday.
var zhWeekdays = map[string]time.Weekday{
	"一": time.Monday, "二": time.Tuesday, "三": time.Wednesday, "四": time.Thursday,
	"五": time.Friday, "六": time.Saturday, "日": time.Sunday, "天": time.Sunday,
	"1": time.Monday, "2": time.Tuesday, "3": time.Wednesday, "4": time.Thursday,
	"5": time.Friday, "6": time.Saturday, "7": time.Sunday,
}

// zhPatterns are tried after the English ones, in order; earlier ones win
// on overlap.
var zhPatterns = []pattern{
	// 2023年5月8日, 2023年5月8號/号
	{regexp.MustCompile(`((?:19|20)\d{2})\s*年\s*` + zhDayNumRe + `\s*月\s*` + zhDayNumRe + `\s*(?:日|號|号)`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		mo, ok1 := zhNumber(m[2])
		d, ok2 := zhNumber(m[3])
		if !ok1 || !ok2 {
			return time.Time{}, time.Time{}, false
		}
		return dayOf(atoi(m[1]), time.Month(mo), d, ref)
	}},
	// 2023/5/8
	{regexp.MustCompile(`((?:19|20)\d{2})/(\d{1,2})/(\d{1,2})`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return dayOf(atoi(m[1]), time.Month(atoi(m[2])), atoi(m[3]), ref)
	}},
	// 2023年5月
	{regexp.MustCompile(`((?:19|20)\d{2})\s*年\s*` + zhDayNumRe + `\s*月`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		mo, ok := zhNumber(m[2])
		if !ok {
			return time.Time{}, time.Time{}, false
		}
		return monthOf(atoi(m[1]), time.Month(mo), ref)
	}},
	// 2023年
	{regexp.MustCompile(`((?:19|20)\d{2})\s*年`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		start := time.Date(atoi(m[1]), 1, 1, 0, 0, 0, 0, ref.Location())
		return start, start.AddDate(1, 0, 0), true
	}},
	// 5月8日: the latest one not after ref
	{regexp.MustCompile(zhDayNumRe + `\s*月\s*` + zhDayNumRe + `\s*(?:日|號|号)`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		mo, ok1 := zhNumber(m[1])
		d, ok2 := zhNumber(m[2])
		if !ok1 || !ok2 || mo > 12 {
			return time.Time{}, time.Time{}, false
		}
		return recentDay(time.Month(mo), d, ref)
	}},
	// 上週五, 下周五, 這星期三, 週日
	{regexp.MustCompile(`(上|下|這|这|本)?(?:個|个)?(?:週|周|星期|禮拜|礼拜)([一二三四五六日天1-7])`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		wd, ok := zhWeekdays[m[2]]
		if !ok {
			return time.Time{}, time.Time{}, false
		}
		start := weekStart(ref).AddDate(0, 0, 7*zhDirection(m[1])+(int(wd)+6)%7)
		return start, start.AddDate(0, 0, 1), true
	}},
	// 上週末, 這週末, 週末
	{regexp.MustCompile(`(上|下|這|这|本)?(?:個|个)?(?:週末|周末)`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return unitsFrom(ref, "weekend", zhDirection(m[1]))
	}},
	// 前天, 昨天, 今天, 明天, 後天
	{regexp.MustCompile(`大前天|前天|昨天|昨日|昨晚|今天|今日|今晚|今早|今天早上|明天|明日|後天|后天`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		off := map[string]int{"大前天": -3, "前天": -2, "昨天": -1, "昨日": -1, "昨晚": -1, "明天": 1, "明日": 1, "後天": 2, "后天": 2}[m[0]]
		return days(ref, off, 1)
	}},
	// 兩週前, 三天前, 5年前, 幾個月前; 三天後 (future)
	{regexp.MustCompile(zhNumRe + `\s*(天|日|` + zhWeekRe + `|(?:個|个)?月|年)\s*(前|以前|之前|後|后|以後|以后|之後|之后)`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		n, ok := zhNumber(m[1])
		if !ok || n == 0 {
			return time.Time{}, time.Time{}, false
		}
		if !strings.Contains(m[3], "前") {
			n = -n
		}
		return unitsFrom(ref, zhUnit(m[2]), -n)
	}},
	// 上週, 下周, 這個星期, 本週
	{regexp.MustCompile(`(上上|上|下下|下|這|这|本)` + zhWeekRe), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return unitsFrom(ref, "week", zhDirection(m[1]))
	}},
	// 上個月, 上个月, 上月, 這個月, 本月, 下個月
	{regexp.MustCompile(`(上上|上|下下|下|這|这|本)(?:個|个)?月`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return unitsFrom(ref, "month", zhDirection(m[1]))
	}},
	// 5月, 五月: the latest such month not after ref
	{regexp.MustCompile(`(去年|今年|明年)?` + zhDayNumRe + `\s*月(?:份)?`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		mo, ok := zhNumber(m[2])
		if !ok || mo < 1 || mo > 12 {
			return time.Time{}, time.Time{}, false
		}
		switch m[1] {
		case "去年":
			return monthOf(ref.Year()-1, time.Month(mo), ref)
		case "今年":
			return monthOf(ref.Year(), time.Month(mo), ref)
		case "明年":
			return monthOf(ref.Year()+1, time.Month(mo), ref)
		}
		return monthRelative(ref, "in", time.Month(mo))
	}},
	// 前年, 去年, 今年, 明年, 後年
	{regexp.MustCompile(`前年|去年|今年|明年|後年|后年`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		off := map[string]int{"前年": -2, "去年": -1, "明年": 1, "後年": 2, "后年": 2}[m[0]]
		return unitsFrom(ref, "year", off)
	}},
	// 最近, 近來/近来: the last 30 days
	{regexp.MustCompile(`最近|近來|近来`), func(m []string, ref time.Time) (time.Time, time.Time, bool) {
		return days(ref, -30, 31)
	}},
}

// hasHan reports whether text holds a Han character.
func hasHan(text string) bool {
	for _, r := range text {
		if r >= 0x2E80 && unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// zhDirection is -1 for 上 (last), +1 for 下 (next), ±2 for 上上/下下, 0 for
// 這/这/本 (this) and none.
func zhDirection(word string) int {
	switch word {
	case "上":
		return -1
	case "上上":
		return -2
	case "下":
		return 1
	case "下下":
		return 2
	}
	return 0
}

// zhUnit maps a Chinese time unit to unitsFrom's.
func zhUnit(u string) string {
	switch {
	case u == "天" || u == "日":
		return "day"
	case strings.HasSuffix(u, "月"):
		return "month"
	case u == "年":
		return "year"
	}
	return "week"
}

// zhDigits are the values of the Chinese numerals.
var zhDigits = map[rune]int{'一': 1, '二': 2, '兩': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}

// zhNumber reads a count in ASCII digits or Chinese numerals up to 99 (十,
// 十二, 二十, 二十五), or 幾/几 as three, as English "a few" is.
func zhNumber(s string) (int, bool) {
	switch s {
	case "幾", "几", "好幾", "好几":
		return 3, true
	}
	if s != "" && s[0] >= '0' && s[0] <= '9' {
		return count(s)
	}
	rs := []rune(s)
	switch {
	case len(rs) == 1 && rs[0] == '十':
		return 10, true
	case len(rs) == 1:
		n, ok := zhDigits[rs[0]]
		return n, ok
	case len(rs) == 2 && rs[0] == '十':
		n, ok := zhDigits[rs[1]]
		return 10 + n, ok
	case len(rs) == 2 && rs[1] == '十':
		n, ok := zhDigits[rs[0]]
		return 10 * n, ok
	case len(rs) == 3 && rs[1] == '十':
		a, ok1 := zhDigits[rs[0]]
		b, ok2 := zhDigits[rs[2]]
		return 10*a + b, ok1 && ok2
	}
	return 0, false
}
