package api

import (
	"net/http"
	"strings"
	"testing"
)

// TestAgentOnlyRequestsNeverReachUsers: a request naming only agent_id
// lists, searches and erases the agent's own memories, never those of the
// users who share the agent.
func TestAgentOnlyRequestsNeverReachUsers(t *testing.T) {
	e := newEnv(t)
	add := func(body map[string]any) {
		e.must(http.StatusOK, "POST", "/v1/memories", body)
	}
	add(map[string]any{"user_id": "alice", "agent_id": "coach", "infer": false,
		"messages": []map[string]any{{"role": "user", "content": "My diagnosis is diabetes."}}})
	add(map[string]any{"agent_id": "coach", "infer": false,
		"messages": []map[string]any{{"role": "system", "content": "Coach notes on diagnosis style: be brief."}}})

	page := decode[memoryPage](t, e.must(http.StatusOK, "GET", "/v1/memories?agent_id=coach", nil))
	if len(page.Results) != 1 || page.Results[0].Scope.UserID != "" {
		t.Fatalf("agent-only list=%+v, want the agent's one own memory", page.Results)
	}
	res := e.must(http.StatusOK, "POST", "/v1/memories/search", map[string]any{"agent_id": "coach", "query": "diagnosis"})
	if strings.Contains(res.Body.String(), "diabetes") || !strings.Contains(res.Body.String(), "Coach notes") {
		t.Errorf("agent-only search=%s, want the agent's note and nothing of alice's", res.Body)
	}
	e.must(http.StatusOK, "DELETE", "/v1/memories?agent_id=coach", nil)
	page = decode[memoryPage](t, e.must(http.StatusOK, "GET", "/v1/memories?user_id=alice&agent_id=coach", nil))
	if len(page.Results) != 1 || !strings.Contains(page.Results[0].Memory, "diabetes") {
		t.Errorf("alice's memories after the agent's erase=%+v, want hers kept", page.Results)
	}
}
