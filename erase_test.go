package lore

import (
	"context"
	"testing"
)

func TestFenceContext(t *testing.T) {
	ctx := context.Background()
	if _, ok := FenceFrom(ctx); ok {
		t.Fatal("FenceFrom(background) ok=true, want false")
	}
	f := Fence{Scope: Scope{TenantID: "t", UserID: "u"}, Seq: 7}
	got, ok := FenceFrom(WithFence(ctx, f))
	if !ok || got != f {
		t.Errorf("FenceFrom(WithFence(f))=%+v, %v, want %+v, true", got, ok, f)
	}
	if _, ok := FenceFrom(WithoutFence(WithFence(ctx, f))); ok {
		t.Error("FenceFrom(WithoutFence(WithFence(f))) ok=true, want false")
	}
}

func TestErasureCovers(t *testing.T) {
	user := Scope{TenantID: "t", UserID: "u"}
	cases := []struct {
		name   string
		erased Scope
		write  Scope
		want   bool
	}{
		{"user covers the user", user, user, true},
		{"user covers the user's runs and agents", user, Scope{TenantID: "t", UserID: "u", AgentID: "a", RunID: "r"}, true},
		{"user spares another user", user, Scope{TenantID: "t", UserID: "v"}, false},
		{"user spares another tenant", user, Scope{TenantID: "t2", UserID: "u"}, false},
		{"agent-only covers the agent's own", Scope{TenantID: "t", AgentID: "a"}, Scope{TenantID: "t", AgentID: "a"}, true},
		{"agent-only spares its users", Scope{TenantID: "t", AgentID: "a"}, Scope{TenantID: "t", UserID: "u", AgentID: "a"}, false},
		{"run spares the rest of the user", Scope{TenantID: "t", UserID: "u", RunID: "r"}, user, false},
		{"tenant covers everyone", Scope{TenantID: "t"}, Scope{TenantID: "t", UserID: "u", AgentID: "a"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := (Erasure{Scope: c.erased}).Covers(c.write); got != c.want {
				t.Errorf("Erasure{%+v}.Covers(%+v)=%v, want %v", c.erased, c.write, got, c.want)
			}
		})
	}
}
