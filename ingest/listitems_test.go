package ingest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
)

// TestUserListItemsIndexed: a user's short list is indexed whole and item by
// item; an assistant's, whole only.
func TestUserListItemsIndexed(t *testing.T) {
	s, _, idx := newTestService(t, nil)
	list := "quick list of news:\n- left the Lee Swallows, singing with Velvet Static now\n- traded the fiesta for a nissan leaf"
	at := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	res, err := s.Add(context.Background(), AddRequest{Scope: alice(), Sync: true, Messages: msgs(at, "user", list, "assistant", list)})
	if err != nil {
		t.Fatal(err)
	}
	user, assistant := res.EpisodeIDs[0], res.EpisodeIDs[1]
	idx.mu.Lock()
	defer idx.mu.Unlock()
	for _, id := range []string{user, assistant} {
		if _, ok := idx.docs[id]; !ok {
			t.Errorf("episode %s not indexed whole", id)
		}
	}
	item := idx.docs[lore.PassageID(user, 0)]
	if item.Kind != lore.KindEpisode || !strings.HasSuffix(item.Text, "- left the Lee Swallows, singing with Velvet Static now") || strings.Contains(item.Text, "fiesta") {
		t.Errorf("user's first item doc = %+v, want the item alone", item)
	}
	if _, ok := idx.docs[lore.PassageID(user, 1)]; !ok {
		t.Errorf("user's second item not indexed")
	}
	if _, ok := idx.docs[lore.PassageID(assistant, 0)]; ok {
		t.Errorf("assistant's list items indexed, want the whole only")
	}
}
