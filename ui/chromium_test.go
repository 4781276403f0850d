package ui_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestInspectorInChromium drives the inspector in headless Chromium against
// a real `lore serve` with API keys on: it loads ui/testdata/alice.json
// through the API, types the key into the page, and checks that the graph
// draws the expected entities, that clicking one shows its facts and source
// turns, that a search shows its results with per-signal scores, and that
// the facts view shows a superseded fact with its history, that rating a
// search result shows the relevance the API answers and the feedback view
// lists the verdicts (and resets them), and that the profile view shows the explicit and
// inferred entries with their evidence and the replaced ones.
// scripts/ci/31-ui-chromium.sh installs Chromium, starts the server and
// runs it; with LORE_UI_SCREENSHOTS it also writes the screenshots that
// docs/ui/ holds.
func TestInspectorInChromium(t *testing.T) {
	base, key, chrome := os.Getenv("LORE_UI_URL"), os.Getenv("LORE_UI_KEY"), os.Getenv("LORE_TEST_CHROMIUM")
	if base == "" || chrome == "" {
		t.Skip("needs LORE_UI_URL (a lore serve), LORE_TEST_CHROMIUM (the chromium binary) and LORE_UI_KEY (a key of its tenant, or empty for an open loopback server); scripts/ci/31-ui-chromium.sh sets them")
	}
	open := key == ""                 // a loopback server without keys
	user := os.Getenv("LORE_UI_USER") // the script's fresh server: "alice"
	if user == "" {
		user = fmt.Sprintf("alice-%d", time.Now().UnixNano())
	}
	load(t, base, key, user)
	// A search whose query shows a diet gives the profile an inferred
	// entry (the conversations gave it explicit ones); it is written by a
	// job after the search answers.
	inferProfile(t, base, key, user)

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chrome), chromedp.NoSandbox, chromedp.WindowSize(1400, 900))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancelTab := chromedp.NewContext(alloc)
	defer cancelTab()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	run := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	texts := func(expr string) []string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](expr))
		if err != nil {
			t.Fatalf("evaluate %s: %v", expr, err)
		}
		return v
	}
	shot := func(name string) {
		t.Helper()
		dir := os.Getenv("LORE_UI_SCREENSHOTS")
		if dir == "" {
			return
		}
		run("settle", chromedp.Sleep(300*time.Millisecond))
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
			t.Fatalf("write screenshot: %v", err)
		}
	}

	if open {
		// An open loopback server needs no key: the linked view loads.
		run("open the graph", chromedp.Navigate(base+"/ui#user="+user+"&view=graph"), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="graph"]`)))
	} else {
		// Without a key the page says what is missing.
		run("open without a key", chromedp.Navigate(base+"/ui#user="+user+"&view=graph"), chromedp.WaitVisible(chromedp.CSS("#status.error")))
		msg := strings.Join(texts(`[document.getElementById("status").textContent]`), "")
		if !strings.Contains(msg, "API key") {
			t.Errorf("status without a key %q, want it to ask for an API key", msg)
		}
		// With the key typed in, the graph draws the user's entities.
		run("open with the key", chromedp.SendKeys(chromedp.ID("key"), key), chromedp.Click(chromedp.CSS("#connect button[type=submit]")),
			chromedp.WaitVisible(chromedp.CSS(`body[data-ready="graph"]`)))
	}
	labels := texts(`[...document.querySelectorAll("#graph .node")].map(n => n.dataset.label)`)
	for _, want := range []string{"Emma", "Marco", "Rome", "Tom", "Berlin", "Lyon", "Stripe", "Max"} {
		if !slices.Contains(labels, want) {
			t.Errorf("graph nodes %v, want %s among them", labels, want)
		}
	}
	links := len(texts(`[...document.querySelectorAll("#graph line.link")].map(l => "")`))
	if links < 6 {
		t.Errorf("graph draws %d links, want the current facts between entities (at least 6)", links)
	}
	shot("graph")

	// Clicking Emma shows her facts and the turns they come from.
	run("click Emma", chromedp.Click(chromedp.CSS(`#graph .node[data-label="Emma"] circle`)),
		chromedp.WaitVisible(chromedp.CSS(`#panel-body[data-entity="Emma"] .turns`)))
	facts := texts(`[...document.querySelectorAll("#panel-body .entity-facts li")].map(li => li.textContent)`)
	turns := texts(`[...document.querySelectorAll("#panel-body .turns li")].map(li => li.textContent)`)
	if !containsAll(facts, "Emma lives in Rome", "architect", "husband") {
		t.Errorf("Emma's facts %q, want Rome, architect and husband", facts)
	}
	if !containsAll(turns, "Emma works as an architect", "My sister Emma moved to Rome") {
		t.Errorf("Emma's source turns %q, want both turns that mention her", turns)
	}
	shot("graph-entity")

	// A search shows its results, best first, with per-signal scores.
	run("search", chromedp.Click(chromedp.CSS(`#tabs button[data-view="search"]`)),
		chromedp.WaitVisible(chromedp.ID("search-q")), chromedp.SendKeys(chromedp.ID("search-q"), "Where does my sister live?"),
		chromedp.Click(chromedp.CSS("#search-form button[type=submit]")),
		chromedp.WaitVisible(chromedp.CSS("#search-results li.result")))
	results := texts(`[...document.querySelectorAll("#search-results li.result")].map(li => li.textContent)`)
	signals := texts(`[...document.querySelectorAll("#search-results li.result:first-child .signal")].map(s => s.textContent)`)
	if len(results) == 0 || !strings.Contains(results[0], "Emma lives in Rome") {
		t.Errorf("search results %q, want Emma's Rome fact first", results)
	}
	if !slices.Contains(signals, "bm25") || !slices.Contains(signals, "relation") {
		t.Errorf("first result's signals %q, want bm25 and relation among them", signals)
	}
	// Rating the first result posts a verdict and shows the relevance the
	// API answers: 1 + 0.15 for helpful, then − 0.10 for not helpful.
	const relevance = `document.querySelector("#search-results li.result:first-child .relevance").textContent`
	run("rate helpful", chromedp.Click(chromedp.CSS(`#search-results li.result:first-child button.helpful`)),
		chromedp.Poll[chromedp.Void](relevance+`.includes("relevance")`, chromedp.WithPollingTimeout(20*time.Second)))
	if got := strings.Join(texts(`[`+relevance+`]`), ""); got != "relevance 1.15 (+0.15)" {
		t.Errorf("after a helpful click the result shows %q, want relevance 1.15 (+0.15)", got)
	}
	run("rate not helpful", chromedp.Click(chromedp.CSS(`#search-results li.result:first-child button.unhelpful`)),
		chromedp.Poll[chromedp.Void](relevance+`.includes("−")`, chromedp.WithPollingTimeout(20*time.Second)))
	if got := strings.Join(texts(`[`+relevance+`]`), ""); got != "relevance 1.05 (−0.10)" {
		t.Errorf("after a not-helpful click the result shows %q, want relevance 1.05 (−0.10)", got)
	}
	shot("search")

	// The feedback view lists both verdicts with the API's answers.
	run("feedback", chromedp.Click(chromedp.ID("panel-close")),
		chromedp.Click(chromedp.CSS(`#tabs button[data-view="feedback"]`)), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="feedback"]`)))
	verdicts := texts(`[...document.querySelectorAll("#feedback-table tbody tr")].map(tr => tr.textContent)`)
	if len(verdicts) != 2 || !strings.Contains(verdicts[0], "not helpful") || !strings.Contains(verdicts[0], "1.05") ||
		!strings.Contains(verdicts[1], "helpful") || !strings.Contains(verdicts[1], "1.15") || !strings.Contains(verdicts[1], "Emma lives in Rome") {
		t.Errorf("feedback rows %q, want the not-helpful verdict (1.05) above the helpful one (1.15) on Emma's Rome fact", verdicts)
	}
	shot("feedback")
	// Reset (two clicks) removes the user's verdicts and the relevance
	// they gave: a new helpful verdict starts from 1 again.
	run("reset feedback", chromedp.Click(chromedp.ID("feedback-reset")), chromedp.Click(chromedp.ID("feedback-reset")),
		chromedp.Poll[chromedp.Void](`document.getElementById("feedback-reset-result").textContent.startsWith("removed")`, chromedp.WithPollingTimeout(20*time.Second)))
	if got := strings.Join(texts(`[document.getElementById("feedback-reset-result").textContent]`), ""); got != "removed 2 verdict(s) of "+user {
		t.Errorf("reset answered %q, want 2 verdicts removed", got)
	}
	run("rate again", chromedp.Click(chromedp.CSS(`#tabs button[data-view="search"]`)), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="search"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#search-results li.result:first-child button.helpful`)),
		chromedp.Click(chromedp.CSS(`#search-results li.result:first-child button.helpful`)),
		chromedp.Poll[chromedp.Void](relevance+`.includes("relevance")`, chromedp.WithPollingTimeout(20*time.Second)))
	if got := strings.Join(texts(`[`+relevance+`]`), ""); got != "relevance 1.15 (+0.15)" {
		t.Errorf("a helpful verdict after the reset shows %q, want relevance 1.15 (+0.15) again", got)
	}

	// The profile view shows the entries the conversations and the search
	// gave, explicit and inferred, with the turns they come from.
	run("profile", chromedp.Click(chromedp.CSS(`#tabs button[data-view="profile"]`)), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="profile"]`)),
		chromedp.Click(chromedp.ID("profile-history")),
		chromedp.WaitVisible(chromedp.CSS(`#profile-history-table tbody tr[data-key]`)))
	prof := texts(`[...document.querySelectorAll("#profile-table tbody tr")].map(tr => [tr.dataset.key, tr.querySelector(".value").textContent, tr.dataset.source, tr.querySelector(".confidence").textContent, tr.querySelector(".evidence").textContent].join("|"))`)
	for _, want := range []string{"location|Lyon|explicit|0.90|I moved to Lyon.", "pet|dog|explicit|0.90|My brother Tom lives in Berlin. I have a dog named Max.", "diet|vegetarian|inferred|0.65|a search (query hash"} {
		if !slices.ContainsFunc(prof, func(r string) bool { return strings.HasPrefix(r, want) }) {
			t.Errorf("profile rows %q, want one starting %q", prof, want)
		}
	}
	replaced := texts(`[...document.querySelectorAll("#profile-history-table tbody tr")].map(tr => tr.dataset.key + "|" + tr.querySelector(".value").textContent)`)
	if !slices.Contains(replaced, "location|Paris") {
		t.Errorf("replaced profile entries %q, want location Paris (before the move to Lyon)", replaced)
	}
	shot("profile")

	// The facts view shows the superseded employer, and its history.
	run("facts", chromedp.Click(chromedp.CSS(`#tabs button[data-view="facts"]`)), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="facts"]`)))
	rows := texts(`[...document.querySelectorAll("#facts-table tbody tr")].map(tr => tr.textContent)`)
	google := ""
	for _, r := range rows {
		if strings.Contains(r, "works_at · Google") {
			google = r
		}
	}
	if !strings.Contains(google, "superseded") {
		t.Errorf("facts rows %q, want 'works_at · Google' marked superseded", rows)
	}
	run("fact history", chromedp.Click(chromedp.Search(`//tr[contains(., "works_at · Google")]`)),
		chromedp.WaitVisible(chromedp.CSS("#panel-body .history li")))
	history := texts(`[...document.querySelectorAll("#panel-body .history li strong")].map(s => s.textContent)`)
	if !slices.Contains(history, "ADD") || !slices.Contains(history, "INVALIDATE") {
		t.Errorf("Google fact's history %q, want ADD and INVALIDATE", history)
	}
	run("scroll up", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.scrollTo(0, 0), true`))
		return err
	}))
	shot("facts")

	run("episodes", chromedp.Click(chromedp.CSS(`#tabs button[data-view="episodes"]`)), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="episodes"]`)))
	episodes := len(texts(`[...document.querySelectorAll("#episodes-list li")].map(li => li.textContent)`))
	if episodes != 7 {
		t.Errorf("episodes listed %d, want the fixture's 7 messages", episodes)
	}
}

func containsAll(items []string, subs ...string) bool {
	all := strings.Join(items, "\n")
	for _, s := range subs {
		if !strings.Contains(all, s) {
			return false
		}
	}
	return true
}

// call makes one API request and decodes its JSON answer into out.
func call(t *testing.T, base, key, method, path string, body, out any) {
	t.Helper()
	var rd *bytes.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, _ := http.NewRequest(method, base+path, rd)
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %s", method, path, res.Status)
	}
	if out != nil {
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

// inferProfile searches as user with a query that shows a vegetarian diet
// and waits (at most 20s) for the profile job to write the inferred entry.
func inferProfile(t *testing.T, base, key, user string) {
	t.Helper()
	call(t, base, key, "POST", "/v1/memories/search", map[string]any{"user_id": user, "query": "vegetarian restaurants near me"}, nil)
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		var view struct {
			Entries []struct{ Key, Value, Source string } `json:"entries"`
		}
		call(t, base, key, "GET", "/v1/users/"+user+"/profile", nil, &view)
		for _, e := range view.Entries {
			if e.Key == "diet" && e.Source == "inferred" {
				return
			}
		}
	}
	t.Fatal("the search did not give the profile an inferred diet within 20s")
}

// load adds the fixture's conversations for user through the API.
func load(t *testing.T, base, key, user string) {
	t.Helper()
	raw, err := os.ReadFile("testdata/alice.json")
	if err != nil {
		t.Fatal(err)
	}
	var batches []map[string]any
	if err := json.Unmarshal(raw, &batches); err != nil {
		t.Fatal(err)
	}
	for _, b := range batches {
		b["user_id"] = user
		body, _ := json.Marshal(b)
		req, _ := http.NewRequest("POST", base+"/v1/memories", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("POST /v1/memories: %v", err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("POST /v1/memories: %s", res.Status)
		}
	}
}
