package main

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPCommandOverStdio runs `lore mcp --user bob` in process on pipes,
// as Claude Desktop runs it as a child, and talks to it with the Go SDK's
// client: the pinned user needs no user_id, another user is refused, and
// closing stdin ends the command cleanly.
func TestMCPCommandOverStdio(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr strings.Builder
	m := &Main{Args: []string{"mcp", "--data-dir", t.TempDir(), "--embedder", "none", "--tenant", "acme", "--user", "bob"},
		Stdin: inR, Stdout: outW, Stderr: &stderr}
	done := make(chan error, 1)
	go func() {
		err := m.Run(context.Background())
		if cerr := m.Close(); err == nil {
			err = cerr
		}
		outW.Close()
		done <- err
	}()

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	callTool := func(name string, args map[string]any) *sdk.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}
	if res := callTool("add_memory", map[string]any{"text": "I live in Oslo."}); res.IsError {
		t.Fatalf("add_memory: %v", res.Content)
	}
	res := callTool("list_memories", map[string]any{"type": "fact"})
	raw, _ := json.Marshal(res.StructuredContent)
	if res.IsError || !strings.Contains(string(raw), "Oslo") || !strings.Contains(string(raw), `"tenant_id":"acme"`) {
		t.Errorf("list_memories as bob: %s, want the Oslo fact in tenant acme", raw)
	}
	if res := callTool("list_memories", map[string]any{"user_id": "carol"}); !res.IsError {
		t.Errorf("list_memories for carol with --user bob succeeded, want a refusal")
	}
	cs.Close()
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("lore mcp: %v (stderr %s)", err, stderr.String())
		}
	case <-ctx.Done():
		t.Fatal("lore mcp did not end when stdin closed")
	}
}
