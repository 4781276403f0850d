package lore

import "testing"

func TestScopeContains(t *testing.T) {
	rec := func(user, agent, run string) Scope {
		return Scope{TenantID: "t", UserID: user, AgentID: agent, RunID: run}
	}
	tests := []struct {
		name string
		read Scope
		rec  Scope
		want bool
	}{
		{"user reads own", rec("u", "", ""), rec("u", "", ""), true},
		{"user reads own with an agent", rec("u", "", ""), rec("u", "a", "r"), true},
		{"user never reads another user", rec("u", "", ""), rec("v", "a", ""), false},
		{"user never reads an agent's own", rec("u", "", ""), rec("", "a", ""), false},
		{"user and agent", rec("u", "a", ""), rec("u", "a", "r"), true},
		{"user and agent, other agent", rec("u", "a", ""), rec("u", "b", ""), false},
		{"agent reads its own", rec("", "a", ""), rec("", "a", "r"), true},
		{"agent never reads its users'", rec("", "a", ""), rec("u", "a", ""), false},
		{"agent never reads another agent's", rec("", "a", ""), rec("", "b", ""), false},
		{"run narrows", rec("", "a", "r"), rec("", "a", "s"), false},
		{"other tenant", rec("u", "", ""), Scope{TenantID: "x", UserID: "u"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.read.Contains(tt.rec); got != tt.want {
				t.Errorf("%+v.Contains(%+v)=%v, want %v", tt.read, tt.rec, got, tt.want)
			}
		})
	}
}
