package retrieve

import (
	"slices"
	"testing"
	"time"
)

func TestZhGloss(t *testing.T) {
	tests := []struct {
		query string
		want  []string
	}{
		{"我妹妹住在哪裡？", []string{"my", "sister", "live", "where"}},
		{"我的老公做什么工作？", []string{"my", "husband", "what", "job"}},
		{"我姐姐的老公是做什麼的？", []string{"my", "sister's", "husband", "what", "job"}},
		{"我現在在哪家公司？", []string{"now", "which", "company"}},
		{"我還在台大醫院工作嗎？", []string{"still", "work", "do"}},
		{"阿明對什麼過敏？", []string{"what"}},
		{"Where does my sister live?", nil},
	}
	for _, tt := range tests {
		if got := zhGloss(tt.query); !slices.Equal(got, tt.want) {
			t.Errorf("zhGloss(%q)=%q, want %q", tt.query, got, tt.want)
		}
	}
}

func TestChineseQueryRoleChains(t *testing.T) {
	a := analyse("我姐姐的老公住在哪裡？", time.Now(), nil)
	chains := roleChains(a.RoleText)
	if len(chains) != 1 || chains[0].Owner != ownerUser || len(chains[0].Roles) != 2 || chains[0].Roles[0][0] != "sister" || chains[0].Roles[1][0] != "husband" {
		t.Fatalf("roleChains(%q)=%+v, want my sister's husband", a.RoleText, chains)
	}
	if !a.FirstPerson || !asksValue(a.Words) {
		t.Errorf("analysis of a Chinese first-person wh-question: FirstPerson=%v asksValue=%v, want both", a.FirstPerson, asksValue(a.Words))
	}
}
