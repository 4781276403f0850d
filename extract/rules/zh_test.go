package rules

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// TestChineseExtraction checks the triples and texts of Chinese messages,
// Traditional and Simplified; "-" marks a fact that has ended (InvalidAt
// set).
func TestChineseExtraction(t *testing.T) {
	ref := time.Date(2024, 5, 8, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		msgs []string
		want []string // "subject|predicate|object|text", "-" prefix when ended
	}{
		{name: "self, job and a named sister who moved", msgs: []string{"我住在台北，在台積電當工程師。我妹妹小美上個月搬到東京了。"}, want: []string{
			"user|lives_in|台北|user住在台北", "user|works_at|台積電|user在台積電工作", "user|works_as|工程師|user是工程師",
			"user|has_sister|小美|小美是user的妹妹", "小美|lives_in|東京|user的妹妹小美住在東京"}},
		{name: "likes and a habit", msgs: []string{"我喜歡攀岩，常去龍洞，程度大約5.11a。"}, want: []string{
			"user|likes|攀岩|user喜歡攀岩", "user|goes_to|龍洞|user常去龍洞"}},
		{name: "mixed latin", msgs: []string{"我在Google工作"}, want: []string{"user|works_at|Google|user在Google工作"}},
		{name: "husband, pronoun, allergy", msgs: []string{"我老公阿明是醫生。他對花生過敏。"}, want: []string{
			"user|has_husband|阿明|阿明是user的老公", "阿明|works_as|醫生|user的老公阿明是醫生", "阿明|allergic_to|花生|user的老公阿明對花生過敏"}},
		{name: "job ending and switch", msgs: []string{"我已經不在台積電工作了，上週換到聯發科。"}, want: []string{
			"-user|works_at|台積電|user已經不在台積電工作", "user|works_at|聯發科|user在聯發科工作"}},
		{name: "simplified ending", msgs: []string{"我已经不喜欢喝咖啡了"}, want: []string{"-user|likes|喝咖啡|user已经不喜欢喝咖啡"}},
		{name: "habit ending", msgs: []string{"我不再吃肉了"}, want: []string{"-user|does|吃肉|user不再吃肉"}},
		{name: "unnamed role", msgs: []string{"我媽住在高雄"}, want: []string{"user的媽|lives_in|高雄|user的媽住在高雄"}},
		{name: "simplified pet", msgs: []string{"我养了一只猫叫咪咪"}, want: []string{"user|has_cat|咪咪|咪咪是user的猫"}},
		{name: "name is my role", msgs: []string{"小美是我妹妹"}, want: []string{"user|has_sister|小美|小美是user的妹妹"}},
		{name: "moved from to, simplified", msgs: []string{"我从北京搬到上海了"}, want: []string{"-user|lives_in|北京|user住在北京", "user|lives_in|上海|user住在上海"}},
		{name: "filler, occupation, workplace", msgs: []string{"嗯，我是一名护士，在协和医院上班"}, want: []string{"user|works_as|护士|user是护士", "user|works_at|协和医院|user在协和医院工作"}},
		{name: "break up", msgs: []string{"我和David分手了"}, want: []string{"-user|dates|David|user和David交往"}},
		{name: "simplified allergy", msgs: []string{"我对虾过敏"}, want: []string{"user|allergic_to|虾|user对虾过敏"}},
		{name: "switch job simplified", msgs: []string{"我换到字节跳动了"}, want: []string{"user|works_at|字节跳动|user在字节跳动工作"}},
		{name: "named person later in the batch", msgs: []string{"我哥哥大衛是律師", "大衛住在香港"}, want: []string{
			"user|has_brother|大衛|大衛是user的哥哥", "大衛|works_as|律師|user的哥哥大衛是律師", "大衛|lives_in|香港|user的哥哥大衛住在香港"}},
		{name: "a pronoun's role and a chain", msgs: []string{"我姐姐美玲住在高雄。她老公志豪是律師，住在台南。"}, want: []string{
			"user|has_sister|美玲|美玲是user的姐姐", "美玲|lives_in|高雄|user的姐姐美玲住在高雄",
			"美玲|has_husband|志豪|志豪是user的姐姐美玲的老公", "志豪|works_as|律師|user的姐姐美玲的老公志豪是律師",
			"志豪|lives_in|台南|user的姐姐美玲的老公志豪住在台南"}},
		{name: "a known name's role", msgs: []string{"我妹妹小美是老師", "小美的老公阿傑在台積電上班"}, want: []string{
			"user|has_sister|小美|小美是user的妹妹", "小美|works_as|老師|user的妹妹小美是老師",
			"小美|has_husband|阿傑|阿傑是user的妹妹小美的老公", "阿傑|works_at|台積電|user的妹妹小美的老公阿傑在台積電工作"}},
		{name: "statement with a resolved date", msgs: []string{"我昨天去了陽明山看海芋"}, want: []string{"user|statement|user2024年5月7日去了陽明山看海芋|user2024年5月7日去了陽明山看海芋"}},
		{name: "greetings and questions give nothing", msgs: []string{"你好！谢谢你", "我妹妹住在哪裡？", "你覺得呢"}, want: nil},
		{name: "pronoun objects and 是 before a verb give no triple", msgs: []string{"我喜歡你", "我是說真的", "我是在台北長大的"}, want: []string{
			"user|statement|user是在台北長大的|user是在台北長大的"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var eps []*lore.Episode
			for i, m := range tt.msgs {
				eps = append(eps, &lore.Episode{ID: fmt.Sprint(i), Role: "user", Content: m, OccurredAt: ref})
			}
			ex, err := New().Extract(context.Background(), lore.ExtractRequest{Episodes: eps})
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			var got []string
			for _, f := range ex.Facts {
				s := f.Subject + "|" + f.Predicate + "|" + f.Object + "|" + f.Text
				if f.InvalidAt != nil {
					s = "-" + s
				}
				got = append(got, s)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("facts of %q:\n got %q\nwant %q", tt.msgs, got, tt.want)
			}
		})
	}
}

func TestIsChinese(t *testing.T) {
	for text, want := range map[string]bool{
		"我在Google工作":                          true,
		"I moved to 台北 last month":            false,
		"I live in Paris":                     false,
		"我妹妹Emma住在London":                     true,
		"We had 火鍋 at Din Tai Fung yesterday": false,
	} {
		if got := isChinese(text); got != want {
			t.Errorf("isChinese(%q)=%v, want %v", text, got, want)
		}
	}
}

// FuzzChineseExtract checks that no Chinese or mixed message makes the
// rules panic or give a fact without subject, predicate or object.
func FuzzChineseExtract(f *testing.F) {
	for _, s := range []string{"我住在台北，在台積電當工程師。", "我妹妹", "我的", "她", "從搬到", "我不再了", "小美是我", "我養了一隻狗叫", "我和分手了", "對過敏", "我是", "，，。？", "我们的老公"} {
		f.Add(s)
	}
	ref := time.Date(2024, 5, 8, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, msg string) {
		ex, err := New().Extract(context.Background(), lore.ExtractRequest{Episodes: []*lore.Episode{{ID: "e", Role: "user", Content: msg, OccurredAt: ref}}})
		if err != nil {
			t.Fatalf("Extract(%q): %v", msg, err)
		}
		for _, fc := range ex.Facts {
			if fc.Subject == "" || fc.Predicate == "" || fc.Object == "" {
				t.Fatalf("Extract(%q) gave an incomplete fact %+v", msg, fc)
			}
		}
	})
}
