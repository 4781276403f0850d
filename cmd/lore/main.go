// Command lore is Lore's single binary: the HTTP server and the commands
// that work directly on a data directory.
//
//	lore serve     run the HTTP API and the background extraction workers
//	lore add       store a message for a user
//	lore search    search a user's memories
//	lore import    import JSONL conversations or a LoCoMo JSON file
//	lore reindex   re-embed and re-index a user's memories
//	lore migrate   apply the graph store's schema
//	lore keys      create, list and revoke API keys
//	lore mcp       serve MCP over stdin/stdout
//	lore audit     verify and list the audit log
//	lore bench     score retrieval on LoCoMo, LongMemEval or a relational question set
//	lore version   print the version
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

// version is the release version, set at build time with
// -ldflags "-X main.version=v1.2.3".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	m := &Main{Args: os.Args[1:], Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}
	err := m.Run(ctx)
	if cerr := m.Close(); err == nil {
		err = cerr
	}
	stop()
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "lore:", message(err))
		os.Exit(1)
	}
}

// errUsage marks command-line mistakes; the usage has been printed already.
var errUsage = errors.New("usage")

// Main is the program: its fields are what the process gives it, so tests
// run it in-process with their own arguments, streams and environment.
type Main struct {
	Args   []string // the arguments after the program name
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads the environment; nil means no variables are set.
	Getenv func(string) string
	// Logger receives the server's logs; nil means logs on Stderr in the
	// format and from the level of serve's --log-format and --log-level.
	Logger *slog.Logger
	// Listening, when set, receives the address `serve` listens on once it
	// accepts connections.
	Listening chan<- string

	closers []io.Closer
}

func (m *Main) getenv(name string) string {
	if m.Getenv == nil {
		return ""
	}
	return m.Getenv(name)
}

const usage = `Usage: lore <command> [flags]

Commands:
  serve     run the HTTP API and the background extraction workers
  add       store a message for a user (text from the arguments or stdin)
  search    search a user's memories
  import    import a JSONL conversation file, a LoCoMo JSON file or a lore export
  export    write everything Lore holds about a user as JSONL
  reindex   re-embed and re-index a user's memories (after changing the embedder)
  doctor    compare the index with the store for a user, a tenant or all; --repair fixes it
  migrate   apply the graph store's schema
  keys      create, list and revoke API keys
  mcp       serve MCP (Model Context Protocol) over stdin/stdout for a local client
  audit     verify and list the audit log
  retention sweep expired memories now; set a tenant's raw-text retention
  profile   show, set and delete a user's profile entries; switch inference from searches
  backfill-success  rebuild the answers-that-worked table from the stored verdicts
  bench     score retrieval on LoCoMo, LongMemEval or a relational question set
  version   print the version

Run 'lore <command> -h' for a command's flags.
`

// Run runs the command named by the first argument.
func (m *Main) Run(ctx context.Context) error {
	if len(m.Args) == 0 {
		fmt.Fprint(m.Stderr, usage)
		return errUsage
	}
	cmd, args := m.Args[0], m.Args[1:]
	switch cmd {
	case "serve":
		return m.serve(ctx, args)
	case "add":
		return m.add(ctx, args)
	case "search":
		return m.search(ctx, args)
	case "import":
		return m.importFile(ctx, args)
	case "export":
		return m.exportUser(ctx, args)
	case "reindex":
		return m.reindex(ctx, args)
	case "doctor":
		return m.doctor(ctx, args)
	case "migrate":
		return m.migrate(ctx, args)
	case "bench":
		return m.bench(ctx, args)
	case "keys":
		return m.keys(ctx, args)
	case "mcp":
		return m.mcpServe(ctx, args)
	case "audit":
		return m.auditCmd(ctx, args)
	case "retention":
		return m.retentionCmd(ctx, args)
	case "profile":
		return m.profile(ctx, args)
	case "backfill-success":
		return m.backfillSuccess(ctx, args)
	case "version", "--version", "-version":
		fmt.Fprintf(m.Stdout, "lore %s\n", version)
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(m.Stdout, usage)
		return nil
	}
	fmt.Fprintf(m.Stderr, "lore: unknown command %q\n\n%s", cmd, usage)
	return errUsage
}

// Close releases what Run opened: the store and the index. It is safe to
// call more than once.
func (m *Main) Close() error {
	var errs []error
	for i := len(m.closers) - 1; i >= 0; i-- {
		errs = append(errs, m.closers[i].Close())
	}
	m.closers = nil
	return errors.Join(errs...)
}
