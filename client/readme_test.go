package client

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

// readmeSnippet is README § Use it from…'s Go snippet, verbatim between the
// markers; TestReadmeSnippet checks that the two are the same text and runs
// it against a real API.
func readmeSnippet(ctx context.Context) error {
	// snippet begin
	c := New(os.Getenv("LORE_URL"), WithAPIKey(os.Getenv("LORE_API_KEY")))
	_, err := c.Add(ctx, AddRequest{UserID: "alice", Sync: true,
		Messages: []Message{{Role: "user", Content: "I live in Paris and my sister Emma lives in Rome."}}})
	if err != nil {
		return err
	}
	res, err := c.Search(ctx, SearchRequest{UserID: "alice", Query: "Where does my sister live?", TopK: 3})
	if err != nil {
		return err
	}
	fmt.Println(res.Results[0].Memory)
	// snippet end
	return nil
}

func TestReadmeSnippet(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatalf("read README: %v", err)
	}
	m := regexp.MustCompile("(?s)<!-- snippet: go -->\n```go\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README has no Go snippet")
	}
	src, err := os.ReadFile("readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile(`(?s)// snippet begin\n(.*?)\t// snippet end`).FindSubmatch(src)[1]
	// The README names the package; this file is inside it.
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(string(body), "\n"), "\n") {
		lines = append(lines, strings.TrimPrefix(l, "\t"))
	}
	got := strings.Join(lines, "\n") + "\n"
	want := regexp.MustCompile(`\bclient\.`).ReplaceAllString(string(m[1]), "")
	if got != want {
		t.Fatalf("README's Go snippet differs from readmeSnippet:\n--- README\n%s--- test\n%s", want, got)
	}

	ts, _ := server(t)
	t.Setenv("LORE_URL", ts.URL)
	t.Setenv("LORE_API_KEY", "")
	r, w, _ := os.Pipe()
	stdout := os.Stdout
	os.Stdout = w
	err = readmeSnippet(context.Background())
	os.Stdout = stdout
	w.Close()
	out, _ := io.ReadAll(r)
	if err != nil || !strings.Contains(string(out), "Emma lives in Rome") {
		t.Fatalf("snippet printed %q, %v; want the Rome fact", out, err)
	}
}
