package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// importProgress reports on stderr how far an import is: messages done of
// the total, the rate so far and the time left at that rate. On a terminal
// it redraws one line in place at most every 200 ms; elsewhere (a log, with
// --progress always) it writes a line every 10 s. The last report ends the
// line and says how long the whole took.
type importProgress struct {
	w           io.Writer
	tty         bool
	total, done int
	start, last time.Time
	now         func() time.Time
}

// newImportProgress starts reporting an import of total messages on w; a
// nil w reports nothing.
func newImportProgress(w io.Writer, tty bool, total int, now func() time.Time) *importProgress {
	t := now()
	return &importProgress{w: w, tty: tty, total: total, start: t, last: t, now: now}
}

// add counts n more messages done and reports when it is time to.
func (p *importProgress) add(n int) {
	p.done += n
	if p.w == nil {
		return
	}
	every := 10 * time.Second
	if p.tty {
		every = 200 * time.Millisecond
	}
	t := p.now()
	if t.Sub(p.last) < every {
		return
	}
	p.last = t
	p.print(progressLine(p.done, p.total, t.Sub(p.start)))
}

// finish reports the end of the import.
func (p *importProgress) finish() {
	if p.w == nil {
		return
	}
	elapsed := p.now().Sub(p.start)
	line := fmt.Sprintf("imported %d/%d messages in %s, %s msg/s", p.done, p.total, elapsed.Round(time.Second), rate(p.done, elapsed))
	p.print(line)
	if p.tty {
		fmt.Fprintln(p.w)
	}
}

// stop ends a redrawn line when the import fails, so the error that follows
// starts on a line of its own.
func (p *importProgress) stop() {
	if p.w != nil && p.tty && p.done > 0 {
		fmt.Fprintln(p.w)
	}
}

func (p *importProgress) print(line string) {
	if p.tty {
		// \r and erase to the end of the line: the new line may be shorter.
		fmt.Fprintf(p.w, "\r%s\x1b[K", line)
		return
	}
	fmt.Fprintln(p.w, line)
}

// progressLine says how far an import of total messages is after elapsed
// with done of them imported: "importing 120/480 messages (25%), 12.0
// msg/s, ETA 30s". The ETA is the rest at the rate so far; before the
// first message there is no rate and it says so.
func progressLine(done, total int, elapsed time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "importing %d/%d messages", done, total)
	if total > 0 {
		fmt.Fprintf(&b, " (%d%%)", done*100/total)
	}
	if done == 0 || elapsed <= 0 {
		b.WriteString(", ETA unknown")
		return b.String()
	}
	per := elapsed.Seconds() / float64(done)
	left := time.Duration(per * float64(max(total-done, 0)) * float64(time.Second))
	fmt.Fprintf(&b, ", %s msg/s, ETA %s", rate(done, elapsed), left.Round(time.Second))
	return b.String()
}

// rate is n per second over elapsed, with one decimal.
func rate(n int, elapsed time.Duration) string {
	if elapsed <= 0 {
		return "0.0"
	}
	return fmt.Sprintf("%.1f", float64(n)/elapsed.Seconds())
}
