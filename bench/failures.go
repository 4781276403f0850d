package bench

import (
	"context"
	"fmt"

	"github.com/lore-memory/lore"
	"github.com/lore-memory/lore/ingest"
)

// maxFailureErrors is how many failure messages a report keeps.
const maxFailureErrors = 5

// Failures counts the records (messages, one per benchmark turn) that
// ingestion did not take. A benchmark never dies on one record: it counts
// it, keeps the first few errors, and goes on without it.
type Failures struct {
	Records int      `json:"failed_records"`
	Errors  []string `json:"failed_errors,omitempty"` // the first maxFailureErrors
}

// add counts n failed records, keeping err's message under what.
func (f *Failures) add(n int, what string, err error) {
	f.Records += n
	if len(f.Errors) < maxFailureErrors {
		f.Errors = append(f.Errors, fmt.Sprintf("%s: %v", what, err))
	}
}

// addMessages adds msgs to scope through svc, sync and with extraction, in
// batches of at most svc's MaxMessages. A batch ingestion refuses as invalid
// or too large is refused before anything of it is stored, so it is tried
// again one message at a time and only the messages still refused are lost;
// a batch that fails otherwise is lost whole. Either way the loss is counted
// in fail under what, and the rest goes on. Only a done context stops it.
func addMessages(ctx context.Context, svc *ingest.Service, scope lore.Scope, msgs []ingest.Message, what string, fail *Failures) error {
	perAdd := svc.Config.MaxMessages
	if perAdd <= 0 {
		perAdd = ingest.DefaultConfig().MaxMessages
	}
	for len(msgs) > 0 {
		n := min(len(msgs), perAdd)
		batch := msgs[:n]
		msgs = msgs[n:]
		_, err := svc.Add(ctx, ingest.AddRequest{Scope: scope, Messages: batch, Infer: true, Sync: true})
		if err == nil {
			continue
		}
		if ctx.Err() != nil {
			return fmt.Errorf("bench: ingest %s: %w", what, ctx.Err())
		}
		if code := lore.ErrorCode(err); len(batch) == 1 || (code != lore.EINVALID && code != lore.ETOOLARGE) {
			fail.add(len(batch), recordName(what, batch), err)
			continue
		}
		for _, m := range batch {
			if _, err := svc.Add(ctx, ingest.AddRequest{Scope: scope, Messages: []ingest.Message{m}, Infer: true, Sync: true}); err != nil {
				if ctx.Err() != nil {
					return fmt.Errorf("bench: ingest %s: %w", what, ctx.Err())
				}
				fail.add(1, recordName(what, []ingest.Message{m}), err)
			}
		}
	}
	return nil
}

// recordName names a failed batch by its first message's source id.
func recordName(what string, batch []ingest.Message) string {
	if len(batch) == 1 && batch[0].SourceID != "" {
		return what + " " + batch[0].SourceID
	}
	if len(batch) > 1 {
		return fmt.Sprintf("%s (%d messages from %s)", what, len(batch), batch[0].SourceID)
	}
	return what
}

// merge adds o's failures to f's.
func (f *Failures) merge(o Failures) {
	f.Records += o.Records
	for _, e := range o.Errors {
		if len(f.Errors) < maxFailureErrors {
			f.Errors = append(f.Errors, e)
		}
	}
}
