package temporal

import (
	"testing"
	"time"
)

func TestParseChinese(t *testing.T) {
	// Monday 8 May 2023, 13:56, as TestParse.
	ref := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		name       string
		text       string
		wantText   string
		start, end time.Time
	}{
		{"yesterday", "我昨天去了支持小組。", "昨天", day(2023, 5, 7), day(2023, 5, 8)},
		{"today", "今天很棒", "今天", day(2023, 5, 8), day(2023, 5, 9)},
		{"tomorrow", "明天見", "明天", day(2023, 5, 9), day(2023, 5, 10)},
		{"day before yesterday", "前天我們見面了", "前天", day(2023, 5, 6), day(2023, 5, 7)},
		{"last week traditional", "她上週搬到波士頓", "上週", day(2023, 5, 1), day(2023, 5, 8)},
		{"last week simplified", "她上周搬到波士顿", "上周", day(2023, 5, 1), day(2023, 5, 8)},
		{"last week xingqi", "上個星期我去爬山", "上個星期", day(2023, 5, 1), day(2023, 5, 8)},
		{"last month traditional", "我妹妹上個月搬到東京了", "上個月", day(2023, 4, 1), day(2023, 5, 1)},
		{"last month simplified", "我妹妹上个月搬到东京了", "上个月", day(2023, 4, 1), day(2023, 5, 1)},
		{"next month", "我下個月開始", "下個月", day(2023, 6, 1), day(2023, 7, 1)},
		{"last year", "去年我跑了馬拉松", "去年", day(2022, 1, 1), day(2023, 1, 1)},
		{"this year", "今年很忙", "今年", day(2023, 1, 1), day(2024, 1, 1)},
		{"two weeks ago traditional", "兩週前我畫了畫", "兩週前", day(2023, 4, 24), day(2023, 5, 1)},
		{"two weeks ago simplified", "两周前我画了画", "两周前", day(2023, 4, 24), day(2023, 5, 1)},
		{"digits days ago", "我3天前領養了牠", "3天前", day(2023, 5, 5), day(2023, 5, 6)},
		{"months ago", "三個月前我換了工作", "三個月前", day(2023, 2, 1), day(2023, 3, 1)},
		{"years ago", "十年前我住在香港", "十年前", day(2013, 1, 1), day(2014, 1, 1)},
		{"a few years ago", "幾年前我住在那裡", "幾年前", day(2020, 1, 1), day(2021, 1, 1)},
		{"in two days", "我們兩天後出發", "兩天後", day(2023, 5, 10), day(2023, 5, 11)},
		{"full date", "2023年5月8日中午", "2023年5月8日", day(2023, 5, 8), day(2023, 5, 9)},
		{"full date hao", "2021年7月4號那天", "2021年7月4號", day(2021, 7, 4), day(2021, 7, 5)},
		{"slash date", "截止日期2023/06/01", "2023/06/01", day(2023, 6, 1), day(2023, 6, 2)},
		{"year month", "2022年6月我畢業了", "2022年6月", day(2022, 6, 1), day(2022, 7, 1)},
		{"year", "我2019年開始畫畫", "2019年", day(2019, 1, 1), day(2020, 1, 1)},
		{"month day, past", "4月20日那天", "4月20日", day(2023, 4, 20), day(2023, 4, 21)},
		{"month day, later means last year", "12月20日那天", "12月20日", day(2022, 12, 20), day(2022, 12, 21)},
		{"month numeral, past", "三月我們搬家了", "三月", day(2023, 3, 1), day(2023, 4, 1)},
		{"month, later means last year", "8月我們搬家了", "8月", day(2022, 8, 1), day(2022, 9, 1)},
		{"last year's month", "去年十二月", "去年十二月", day(2022, 12, 1), day(2023, 1, 1)},
		{"next friday traditional", "下週五有派對", "下週五", day(2023, 5, 19), day(2023, 5, 20)},
		{"next friday simplified", "下周五有派对", "下周五", day(2023, 5, 19), day(2023, 5, 20)},
		{"last friday", "上週五我去了", "上週五", day(2023, 5, 5), day(2023, 5, 6)},
		{"this wednesday", "這週三開會", "這週三", day(2023, 5, 10), day(2023, 5, 11)},
		{"sunday xingqitian", "星期天我們烤了蛋糕", "星期天", day(2023, 5, 14), day(2023, 5, 15)},
		{"last weekend", "上週末我們去健行", "上週末", day(2023, 5, 6), day(2023, 5, 8)},
		{"recently", "我最近加入了", "最近", day(2023, 4, 8), day(2023, 5, 9)},
		{"mixed with english", "I moved to 台北 上個月", "上個月", day(2023, 4, 1), day(2023, 5, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spans := Parse(tt.text, ref)
			if len(spans) == 0 {
				t.Fatalf("Parse(%q) found nothing, want %q", tt.text, tt.wantText)
			}
			s := spans[0]
			if s.Text != tt.wantText || !s.Start.Equal(tt.start) || !s.End.Equal(tt.end) {
				t.Fatalf("Parse(%q)[0] = %q [%s, %s), want %q [%s, %s)", tt.text, s.Text,
					s.Start.Format(time.DateOnly), s.End.Format(time.DateOnly), tt.wantText,
					tt.start.Format(time.DateOnly), tt.end.Format(time.DateOnly))
			}
			if tt.text[s.Offset:s.Offset+len(s.Text)] != s.Text {
				t.Fatalf("Offset %d does not point at %q", s.Offset, s.Text)
			}
		})
	}
}

func TestParseChineseNothing(t *testing.T) {
	ref := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)
	for _, text := range []string{"我住在台北", "我喜歡攀岩，常去龍洞", "我是工程師", "天后宮很漂亮"} {
		if spans := Parse(text, ref); len(spans) != 0 {
			t.Errorf("Parse(%q)=%+v, want nothing", text, spans)
		}
	}
}

func TestZhNumber(t *testing.T) {
	for in, want := range map[string]int{"一": 1, "兩": 2, "两": 2, "十": 10, "十二": 12, "二十": 20, "二十五": 25, "12": 12, "幾": 3} {
		if got, ok := zhNumber(in); !ok || got != want {
			t.Errorf("zhNumber(%q)=%d,%v, want %d", in, got, ok, want)
		}
	}
	if _, ok := zhNumber("百"); ok {
		t.Errorf("zhNumber(百) ok, want not a number")
	}
}
