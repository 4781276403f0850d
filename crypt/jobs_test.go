package crypt_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/extract/rules"
	"github.com/lore-memory/lore/ingest"
)

// TestJobsSealed: a background extraction's events (each with a fact's
// text) are sealed in the job's row and read back in the clear; neither
// the file nor the WAL holds them.
func TestJobsSealed(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, idx, raw := open(t, dir, master(t))
	cfg := ingest.DefaultConfig()
	cfg.PollInterval = 5 * time.Millisecond
	svc := &ingest.Service{Store: st, Index: idx, Extractor: rules.New(), Config: cfg}
	sc := lore.Scope{TenantID: "acme", UserID: "alice"}
	res, err := svc.Add(ctx, ingest.AddRequest{Scope: sc, Infer: true,
		Messages: []ingest.Message{{Role: "user", Content: "I work as a quokkatamer at the harbour museum."}}})
	if err != nil || res.JobID == "" {
		t.Fatalf("Add = %+v, %v; want a queued job", res, err)
	}
	wctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- svc.RunWorkers(wctx) }()
	var job *lore.Job
	for deadline := time.Now().Add(20 * time.Second); ; {
		if job, err = st.GetJob(ctx, sc.TenantID, res.JobID); err == nil && job.Status == lore.JobDone {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job not done in 20s: %+v, %v", job, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	<-done
	var texts []string
	for _, ev := range job.Events {
		if strings.Contains(ev.Memory, "quokkatamer") {
			texts = append(texts, ev.Memory)
		}
	}
	if len(texts) == 0 {
		t.Fatalf("job events %+v hold no fact about the marker, want one in the clear", job.Events)
	}
	rawJob, err := raw.GetJob(ctx, sc.TenantID, res.JobID)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range rawJob.Events {
		if strings.Contains(ev.Memory, "quokkatamer") {
			t.Errorf("the stored job event %q is in the clear", ev.Memory)
		}
	}
	if err := raw.Close(); err != nil { // checkpoints the WAL into the file
		t.Fatal(err)
	}
	for _, name := range []string{"lore.db", "lore.db-wal"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if os.IsNotExist(err) {
			continue
		}
		for _, secret := range texts {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s holds the job event %q in the clear", name, secret)
			}
		}
	}
}
