package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/bench"
	"github.com/lore-memory/lore/export"
	"github.com/lore-memory/lore/ingest"
	"github.com/lore-memory/lore/internal/fanout"
)

// importBatch is one Add of an import: a JSONL line or a LoCoMo session.
type importBatch struct {
	Where string // for error messages: "line 3", "conv-26 session_4"
	Req   ingest.AddRequest
}

// importSummary is what an import did.
type importSummary struct {
	Scopes   int            `json:"scopes"`
	Batches  int            `json:"batches"`
	Messages int            `json:"messages"`
	Episodes int            `json:"episodes"`
	Jobs     int            `json:"jobs"`
	Events   map[string]int `json:"events"` // e.g. "fact ADD": 12
	// Failed lists the batches that failed, with --keep-going.
	Failed []string `json:"failed,omitempty"`
}

func (m *Main) importFile(ctx context.Context, args []string) error {
	e := &env{get: m.getenv}
	var cfg backendConfig
	var sf scopeFlags
	fs := m.flagSet("import", "[flags] FILE   (JSONL conversations, LoCoMo JSON or a lore export; - for stdin)")
	cfg.register(fs, e)
	sf.register(fs, e)
	sync := fs.Bool("sync", true, "extract during the import; false queues jobs for `lore serve`")
	infer := fs.Bool("infer", true, "extract facts; false stores the messages verbatim as memories")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	keepGoing := fs.Bool("keep-going", false, "import the remaining batches when one fails, and report the failures at the end")
	progress := fs.String("progress", "auto", "report messages done, rate and ETA on stderr: auto (when stderr is a terminal), always or never")
	workers := fs.Int("workers", 0, "users imported at once (each user's batches stay in file order); 0: one per CPU")
	if err := parse(fs, args, e); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	if *progress != "auto" && *progress != "always" && *progress != "never" {
		return lore.Errorf(lore.EINVALID, "--progress %q: want auto, always or never", *progress)
	}
	data, err := m.readInput(fs.Arg(0))
	if err != nil {
		return err
	}
	if export.IsExport(data) {
		return m.importExport(ctx, fs, data, cfg, sf, *asJSON)
	}
	batches, err := parseImport(data, sf)
	if err != nil {
		return err
	}
	for i := range batches {
		batches[i].Req.Infer, batches[i].Req.Sync = *infer, *sync
	}
	b, err := m.openData(ctx, cfg)
	if err != nil {
		return err
	}
	svc := b.ingestService(ingest.DefaultConfig(), m.quietLogger())
	if err := svc.CheckEmbedder(ctx); err != nil {
		return err
	}
	if *workers < 0 {
		return lore.Errorf(lore.EINVALID, "--workers %d: want 0 (one per CPU) or more", *workers)
	}
	sum, err := m.runImport(ctx, svc, batches, *keepGoing, *progress, cmp.Or(*workers, runtime.NumCPU()))
	if err != nil {
		return err
	}
	var failed error
	if len(sum.Failed) > 0 {
		failed = fmt.Errorf("%d of %d batches failed", len(sum.Failed), len(batches))
	}
	if *asJSON {
		return errors.Join(writeJSON(m.Stdout, sum), failed)
	}
	fmt.Fprintf(m.Stdout, "imported %d messages in %d batches for %d scopes: %d episodes stored", sum.Messages, sum.Batches, sum.Scopes, sum.Episodes)
	if sum.Jobs > 0 {
		fmt.Fprintf(m.Stdout, ", %d extraction jobs queued for `lore serve`", sum.Jobs)
	}
	fmt.Fprintln(m.Stdout)
	keys := make([]string, 0, len(sum.Events))
	for k := range sum.Events {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(m.Stdout, "  %-16s %d\n", k, sum.Events[k])
	}
	for _, f := range sum.Failed {
		fmt.Fprintf(m.Stdout, "  failed: %s\n", f)
	}
	return failed
}

// readInput reads a file, or stdin for "-".
func (m *Main) readInput(path string) ([]byte, error) {
	if path == "-" {
		b, err := io.ReadAll(m.Stdin)
		if err != nil {
			return nil, fmt.Errorf("read stdin: %w", err)
		}
		return b, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return b, nil
}

// runImport adds the batches, reporting progress on stderr as the progress
// flag says (auto: on a terminal). Each user's batches go in file order, so
// later sessions supersede earlier ones; different users are imported at
// once, on up to workers goroutines, since their graphs share nothing. A
// failed batch stops the import unless keepGoing, which records it in the
// summary instead.
func (m *Main) runImport(ctx context.Context, svc *ingest.Service, batches []importBatch, keepGoing bool, progress string, workers int) (importSummary, error) {
	sum := importSummary{Events: map[string]int{}}
	total := 0
	for _, b := range batches {
		total += len(b.Req.Messages)
	}
	tty := isTerminal(m.Stderr)
	var w io.Writer
	if progress == "always" || progress == "auto" && tty {
		w = m.Stderr
	}
	bar := newImportProgress(w, tty, total, time.Now)
	var (
		mu     sync.Mutex // guards sum, failed and bar
		failed = map[int]string{}
	)
	scopes := map[lore.Scope]bool{}
	err := fanout.Each(ctx, workers, importLanes(batches), func(ctx context.Context, lane []int) error {
		for _, i := range lane {
			b := batches[i]
			res, err := svc.Add(ctx, b.Req)
			mu.Lock()
			bar.add(len(b.Req.Messages))
			if err != nil && (!keepGoing || ctx.Err() != nil) {
				mu.Unlock()
				return fmt.Errorf("import %s (batch %d of %d; the batches before it in the file are stored, for its user; other users' may be in part): %w", b.Where, i+1, len(batches), err)
			} else if err != nil {
				failed[i] = b.Where + ": " + message(err)
				mu.Unlock()
				continue
			}
			scopes[b.Req.Scope.WithDefaults()] = true
			sum.Batches++
			sum.Messages += len(b.Req.Messages)
			sum.Episodes += len(res.EpisodeIDs)
			if res.JobID != "" {
				sum.Jobs++
			}
			for _, ev := range res.Events {
				sum.Events[string(ev.Type)+" "+string(ev.Event)]++
			}
			mu.Unlock()
		}
		return nil
	})
	if err != nil {
		bar.stop()
		return sum, err
	}
	bar.finish()
	for _, i := range slices.Sorted(maps.Keys(failed)) {
		sum.Failed = append(sum.Failed, failed[i])
	}
	sum.Scopes = len(scopes)
	return sum, nil
}

// importLanes groups the batches' indexes by the user whose graph they
// write (tenant and user, or tenant and agent for agent-only memories), in
// file order within each group and in order of first appearance.
func importLanes(batches []importBatch) [][]int {
	type owner struct{ tenant, user, agent string }
	lane := map[owner]int{}
	var lanes [][]int
	for i, b := range batches {
		sc := b.Req.Scope.WithDefaults()
		o := owner{tenant: sc.TenantID, user: sc.UserID}
		if sc.UserID == "" {
			o.agent = sc.AgentID
		}
		n, ok := lane[o]
		if !ok {
			n = len(lanes)
			lane[o] = n
			lanes = append(lanes, nil)
		}
		lanes[n] = append(lanes[n], i)
	}
	return lanes
}

// isTerminal reports whether w is a terminal, where a progress bar helps;
// in a pipe or a log it would only add noise.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// parseImport reads a LoCoMo JSON file (a JSON array) or JSONL
// conversations (one object per line).
func parseImport(data []byte, sf scopeFlags) ([]importBatch, error) {
	trimmed := bytes.TrimSpace(data)
	switch {
	case len(trimmed) == 0:
		return nil, lore.Errorf(lore.EINVALID, "the import file is empty")
	case trimmed[0] == '[':
		return parseLoCoMo(trimmed, sf)
	case trimmed[0] == '{':
		return parseJSONL(data, sf)
	}
	return nil, lore.Errorf(lore.EINVALID, "the import file is neither JSONL (objects) nor LoCoMo JSON (an array)")
}

// jsonlRecord is one line of a JSONL import.
type jsonlRecord struct {
	TenantID string           `json:"tenant_id"`
	UserID   string           `json:"user_id"`
	AgentID  string           `json:"agent_id"`
	RunID    string           `json:"run_id"`
	Messages []ingest.Message `json:"messages"`
	Metadata map[string]any   `json:"metadata"`
}

// parseJSONL reads one conversation per line. The scope flags, when set,
// win over a line's own fields.
func parseJSONL(data []byte, sf scopeFlags) ([]importBatch, error) {
	var out []importBatch
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var rec jsonlRecord
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rec); err != nil {
			return nil, lore.Errorf(lore.EINVALID, "line %d: %s", n, strings.TrimPrefix(err.Error(), "json: "))
		}
		scope := lore.Scope{TenantID: pick(sf.Tenant, rec.TenantID), UserID: pick(sf.User, rec.UserID), AgentID: pick(sf.Agent, rec.AgentID), RunID: pick(sf.Run, rec.RunID)}.WithDefaults()
		if err := scope.Validate(); err != nil {
			return nil, lore.Errorf(lore.EINVALID, "line %d: %s (set user_id on the line or use --user)", n, lore.ErrorMessage(err))
		}
		if len(rec.Messages) == 0 {
			return nil, lore.Errorf(lore.EINVALID, "line %d: messages is empty", n)
		}
		out = append(out, importBatch{Where: fmt.Sprintf("line %d", n), Req: ingest.AddRequest{Scope: scope, Messages: rec.Messages, Metadata: rec.Metadata}})
	}
	if err := sc.Err(); err != nil {
		return nil, lore.Errorf(lore.EINVALID, "reading JSONL: %s", err)
	}
	return out, nil
}

// pick returns the flag's value when set, else the record's.
func pick(flagValue, recordValue string) string {
	if flagValue != "" {
		return flagValue
	}
	return recordValue
}

// parseLoCoMo turns each session of each LoCoMo sample into one batch, as
// bench.ParseLoCoMo reads them (the same reader `lore bench` uses). Each
// sample is its own user unless --user names one.
func parseLoCoMo(data []byte, sf scopeFlags) ([]importBatch, error) {
	ds, err := bench.ParseLoCoMo(data)
	if err != nil {
		return nil, lore.Errorf(lore.EINVALID, "%s", err)
	}
	var out []importBatch
	for _, sp := range ds.Spaces {
		scope := lore.Scope{TenantID: sf.Tenant, UserID: pick(sf.User, sp.ID), AgentID: sf.Agent, RunID: sf.Run}.WithDefaults()
		if err := scope.Validate(); err != nil {
			return nil, lore.Errorf(lore.EINVALID, "LoCoMo sample %s: %s", sp.ID, lore.ErrorMessage(err))
		}
		for _, sess := range sp.Sessions {
			if len(sess.Turns) == 0 {
				continue
			}
			msgs := make([]ingest.Message, 0, len(sess.Turns))
			for _, t := range sess.Turns {
				at := t.Time
				msgs = append(msgs, ingest.Message{Role: t.Role, Name: t.Speaker, Content: t.Text, CreatedAt: &at, SourceID: t.ID})
			}
			out = append(out, importBatch{Where: fmt.Sprintf("%s session_%d", sp.ID, sess.Number), Req: ingest.AddRequest{
				Scope: scope, Messages: msgs, Metadata: map[string]any{"sample_id": sp.ID, "session": sess.Number},
			}})
		}
	}
	if len(out) == 0 {
		return nil, lore.Errorf(lore.EINVALID, "the LoCoMo file holds no sessions")
	}
	return out, nil
}
