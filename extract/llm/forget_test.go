package llm

import (
	"context"
	"testing"

	"github.com/lore-memory/lore"
)

func TestForgetDropsTheScopesReplies(t *testing.T) {
	ctx := context.Background()
	alice := lore.Scope{TenantID: "t", UserID: "alice"}
	aliceBot := lore.Scope{TenantID: "t", UserID: "alice", AgentID: "bot"}
	bob := lore.Scope{TenantID: "t", UserID: "bob"}
	bot := lore.Scope{TenantID: "t", AgentID: "bot"}
	odd := lore.Scope{TenantID: "t/x", UserID: "alice/"}
	cases := []struct {
		name   string
		forget lore.Scope
		gone   []lore.Scope
		kept   []lore.Scope
	}{
		{"user", alice, []lore.Scope{alice, aliceBot}, []lore.Scope{bob, bot, odd}},
		{"agent only", bot, []lore.Scope{bot}, []lore.Scope{alice, aliceBot, bob, odd}},
		{"escaped ids", odd, []lore.Scope{odd}, []lore.Scope{alice, aliceBot, bob, bot}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cache := NewLRU(100)
			x := &Extractor{cache: cache}
			for _, sc := range []lore.Scope{alice, aliceBot, bob, bot, odd} {
				if err := cache.Put(ctx, scopeKey(sc)+"hash", "reply"); err != nil {
					t.Fatal(err)
				}
			}
			if err := cache.Put(ctx, "0123abcd", "legacy reply"); err != nil {
				t.Fatal(err)
			}
			if err := x.Forget(ctx, c.forget); err != nil {
				t.Fatalf("Forget: %v", err)
			}
			for _, sc := range c.gone {
				if _, ok, _ := cache.Get(ctx, scopeKey(sc)+"hash"); ok {
					t.Errorf("reply of %+v still cached, want it forgotten", sc)
				}
			}
			for _, sc := range c.kept {
				if _, ok, _ := cache.Get(ctx, scopeKey(sc)+"hash"); !ok {
					t.Errorf("reply of %+v forgotten, want it kept", sc)
				}
			}
			if _, ok, _ := cache.Get(ctx, "0123abcd"); ok {
				t.Error("legacy unscoped reply still cached, want the first erase to drop it")
			}
		})
	}
}
