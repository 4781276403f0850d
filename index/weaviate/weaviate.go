// Package weaviate implements lore.Index on a Weaviate server: BM25 over the
// text of facts and episodes, and nearest-neighbour search over the vectors
// Lore's embedder supplies (Weaviate vectorizes nothing itself).
//
// Facts and episodes live in two collections, LoreFact and LoreEpisode. Both
// use Weaviate's native multi-tenancy with one Weaviate tenant per Lore
// tenant, and every read and delete inside it carries a strict filter on the
// user, agent and run that the request's lore.Scope sets, so a read sees
// exactly what lore.Scope.Contains allows. docs/weaviate.md explains why the
// partition is the Lore tenant and not the user.
package weaviate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lore-memory/lore"
	wv "github.com/weaviate/weaviate-go-client/v4/weaviate"
	"github.com/weaviate/weaviate-go-client/v4/weaviate/fault"
	"github.com/weaviate/weaviate/entities/models"
)

var _ lore.Index = (*Index)(nil)

// Collection names. They are fixed so that every Lore process pointed at
// one Weaviate shares one index.
const (
	FactCollection    = "LoreFact"
	EpisodeCollection = "LoreEpisode"
)

// Property names of both collections.
const (
	propID     = "lore_id"
	propTenant = "tenant_id"
	propUser   = "user_id"
	propAgent  = "agent_id"
	propRun    = "run_id"
	propText   = "text"
	propTerms  = "terms"
	propTime   = "time"
)

// requestTimeout bounds one HTTP request to Weaviate; callers' contexts can
// end it sooner.
const requestTimeout = 60 * time.Second

// Config says where the Weaviate server is.
type Config struct {
	// URL is the server's REST address: http://host:8080, https://host, or
	// weaviate://host:8080 (plain HTTP).
	URL string
	// APIKey is sent as a bearer token when set.
	APIKey string
}

// Index is a lore.Index on a Weaviate server. It is safe for concurrent use.
type Index struct {
	client    *wv.Client
	transport *http.Transport
	// tenants caches the Weaviate tenant names this process has created in
	// both collections, so Upsert asks the server only once per tenant.
	tenants sync.Map
}

// Open connects to the server, checks it is ready, and creates the fact and
// episode collections unless they exist. It returns EINVALID for a bad URL,
// EUNAVAILABLE when the server cannot be reached, and ECONFLICT when an
// existing collection has an incompatible schema.
func Open(ctx context.Context, cfg Config) (*Index, error) {
	scheme, host, err := parseURL(cfg.URL)
	if err != nil {
		return nil, err
	}
	// The default transport keeps only two idle connections per host, so
	// concurrent searches would keep opening new TCP connections.
	transport := &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        128,
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     90 * time.Second,
		ForceAttemptHTTP2:   true,
	}
	headers := map[string]string{}
	if cfg.APIKey != "" {
		headers["Authorization"] = "Bearer " + cfg.APIKey
	}
	httpClient := &http.Client{Transport: transport, Timeout: requestTimeout}
	// Check readiness under ctx before building the client: wv.New asks the
	// server for its version without a context.
	if err := checkReady(ctx, httpClient, scheme, host, headers); err != nil {
		transport.CloseIdleConnections()
		return nil, fmt.Errorf("weaviate: open: %w", err)
	}
	client := wv.New(wv.Config{
		Host:   host,
		Scheme: scheme,
		// The client ignores Config.Timeout when given its own
		// http.Client; httpClient carries the timeout.
		ConnectionClient: httpClient,
		Headers:          headers,
	})
	idx := &Index{client: client, transport: transport}
	for _, class := range []string{FactCollection, EpisodeCollection} {
		if err := idx.ensureCollection(ctx, class); err != nil {
			transport.CloseIdleConnections()
			return nil, err
		}
	}
	warnBlockMax(ctx, httpClient, scheme+"://"+host, headers)
	return idx, nil
}

// warnBlockMax logs a warning when the collections use Weaviate's BlockMax
// WAND index on a release before 1.36. In 1.35.2 that index drops matches of
// terms not yet flushed to disk from limited BM25 queries
// (weaviate/weaviate#11780), so recent memories go missing from text search.
// The server decides the index when a collection is created
// (USE_INVERTED_SEARCHABLE=false selects the classic one); the client cannot.
// Failing to read the schema or version is not an error here: Open has
// already proven the server works.
func warnBlockMax(ctx context.Context, c *http.Client, base string, headers map[string]string) {
	var meta struct {
		Version string `json:"version"`
	}
	if getJSON(ctx, c, base+"/v1/meta", headers, &meta) != nil || !before136(meta.Version) {
		return
	}
	for _, class := range []string{FactCollection, EpisodeCollection} {
		var schema struct {
			InvertedIndexConfig struct {
				UsingBlockMaxWAND bool `json:"usingBlockMaxWAND"`
			} `json:"invertedIndexConfig"`
		}
		if getJSON(ctx, c, base+"/v1/schema/"+class, headers, &schema) != nil || !schema.InvertedIndexConfig.UsingBlockMaxWAND {
			continue
		}
		slog.WarnContext(ctx, "weaviate collection uses the BlockMax WAND index, which in this Weaviate release can leave recently added memories out of BM25 results; "+
			"recreate the collections on a server started with USE_INVERTED_SEARCHABLE=false and run `lore reindex` (see docs/weaviate.md)",
			slog.String("collection", class), slog.String("weaviate_version", meta.Version))
	}
}

// before136 reports whether a Weaviate version such as "1.35.2" is older
// than 1.36.
func before136(version string) bool {
	var major, minor int
	if _, err := fmt.Sscanf(version, "%d.%d", &major, &minor); err != nil {
		return false
	}
	return major < 1 || (major == 1 && minor < 36)
}

// getJSON decodes the JSON body of a GET that answers 200.
func getJSON(ctx context.Context, c *http.Client, url string, headers map[string]string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	for k, h := range headers {
		req.Header.Set(k, h)
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: HTTP %d", url, resp.StatusCode)
	}
	return json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(v)
}

// Close releases idle connections. The server keeps the data.
func (x *Index) Close() error {
	x.transport.CloseIdleConnections()
	return nil
}

// checkReady reports EUNAVAILABLE unless the server answers its readiness
// probe with 200.
func checkReady(ctx context.Context, c *http.Client, scheme, host string, headers map[string]string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, scheme+"://"+host+"/v1/.well-known/ready", nil)
	if err != nil {
		return lore.Errorf(lore.EINVALID, "weaviate address %q: %v", host, err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return lore.Errorf(lore.EUNAVAILABLE, "weaviate at %s is not reachable: %v", host, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		return lore.Errorf(lore.EUNAVAILABLE, "weaviate at %s is not ready: HTTP %d", host, resp.StatusCode)
	}
	return nil
}

// parseURL splits a configured address into the scheme and host the client
// wants.
func parseURL(raw string) (scheme, host string, err error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return "", "", lore.Errorf(lore.EINVALID, "weaviate URL %q must look like http://host:8080", raw)
	}
	switch u.Scheme {
	case "http", "weaviate":
		scheme = "http"
	case "https":
		scheme = "https"
	default:
		return "", "", lore.Errorf(lore.EINVALID, "weaviate URL %q: scheme must be http, https or weaviate", raw)
	}
	if strings.Trim(u.Path, "/") != "" || u.RawQuery != "" || u.User != nil {
		return "", "", lore.Errorf(lore.EINVALID, "weaviate URL %q must have no path, query or credentials (use APIKey)", raw)
	}
	return scheme, u.Host, nil
}

// collectionSchema is the schema of both collections. Scope properties use
// field tokenization so that equality filters compare whole identifiers,
// case-sensitively, as lore.Scope.Contains does.
func collectionSchema(class string) *models.Class {
	yes, no := true, false
	scopeProp := func(name string) *models.Property {
		return &models.Property{
			Name: name, DataType: []string{"text"}, Tokenization: "field",
			IndexFilterable: &yes, IndexSearchable: &no,
		}
	}
	return &models.Class{
		Class:       class,
		Description: "Lore " + strings.TrimPrefix(class, "Lore") + " index: text for BM25, vectors supplied by Lore",
		Vectorizer:  "none",
		// HNSW with cosine distance, so 1 - distance is the cosine similarity.
		// A scope filter that matches fewer objects than the flat-search
		// cutoff (Weaviate's default, 40k) is answered by an exact scan of
		// the matching objects, which is the common per-user case.
		// No quantization, even where the server's DEFAULT_QUANTIZATION
		// asks for it: scores are exact cosines, as in the embedded index.
		VectorIndexType:   "hnsw",
		VectorIndexConfig: map[string]any{"distance": "cosine", "skipDefaultQuantization": true},
		InvertedIndexConfig: &models.InvertedIndexConfig{
			// k1 and b are the embedded index's (FTS5's bm25() defaults).
			Bm25: &models.BM25Config{K1: 1.2, B: 0.75},
			// No stop-word list: the embedded index has none, and a
			// query such as "who am I" must still match the same documents.
			Stopwords: &models.StopwordConfig{Preset: "none"},
		},
		MultiTenancyConfig: &models.MultiTenancyConfig{
			Enabled:              true,
			AutoTenantCreation:   true,
			AutoTenantActivation: true,
		},
		Properties: []*models.Property{
			scopeProp(propID),
			scopeProp(propTenant),
			scopeProp(propUser),
			scopeProp(propAgent),
			scopeProp(propRun),
			// The text as given, kept for inspection only.
			{
				Name: propText, DataType: []string{"text"}, Tokenization: "word",
				IndexFilterable: &no, IndexSearchable: &no,
			},
			// The text as terms.Joined makes it, the embedded index's
			// terms separated by spaces: BM25 runs on these, split on
			// white space only.
			{
				Name: propTerms, DataType: []string{"text"}, Tokenization: "whitespace",
				IndexFilterable: &no, IndexSearchable: &yes,
			},
			{
				Name: propTime, DataType: []string{"date"},
				IndexFilterable: &yes, IndexRangeFilters: &yes,
			},
		},
	}
}

// ensureCollection creates class unless it exists, and checks that an
// existing one is compatible. Two processes opening at once both succeed:
// the loser of the creation race finds the winner's collection.
func (x *Index) ensureCollection(ctx context.Context, class string) error {
	existing, err := x.client.Schema().ClassGetter().WithClassName(class).Do(ctx)
	if err != nil && statusCode(err) != http.StatusNotFound {
		return fmt.Errorf("weaviate: get collection %s: %w", class, wrapErr(err))
	}
	if err == nil && existing != nil {
		return checkCollection(existing)
	}
	createErr := x.client.Schema().ClassCreator().WithClass(collectionSchema(class)).Do(ctx)
	if createErr == nil {
		return nil
	}
	existing, err = x.client.Schema().ClassGetter().WithClassName(class).Do(ctx)
	if err != nil || existing == nil {
		return fmt.Errorf("weaviate: create collection %s: %w", class, wrapErr(createErr))
	}
	return checkCollection(existing)
}

// checkCollection reports ECONFLICT when a collection made elsewhere lacks
// what the index relies on.
func checkCollection(c *models.Class) error {
	if c.MultiTenancyConfig == nil || !c.MultiTenancyConfig.Enabled {
		return lore.Errorf(lore.ECONFLICT, "weaviate collection %s exists without multi-tenancy; drop it or point Lore at another Weaviate", c.Class)
	}
	if !c.MultiTenancyConfig.AutoTenantCreation {
		return lore.Errorf(lore.ECONFLICT, "weaviate collection %s exists without autoTenantCreation; enable it or drop the collection", c.Class)
	}
	want := collectionSchema(c.Class)
	for _, wp := range want.Properties {
		i := slices.IndexFunc(c.Properties, func(p *models.Property) bool { return p.Name == wp.Name })
		if i < 0 {
			return lore.Errorf(lore.ECONFLICT, "weaviate collection %s lacks property %s: it was made by an older Lore; delete the collection and run `lore reindex`", c.Class, wp.Name)
		}
		p := c.Properties[i]
		if !slices.Equal(p.DataType, wp.DataType) || (wp.Tokenization != "" && p.Tokenization != wp.Tokenization) {
			return lore.Errorf(lore.ECONFLICT, "weaviate collection %s: property %s is %v/%s, want %v/%s",
				c.Class, wp.Name, p.DataType, p.Tokenization, wp.DataType, wp.Tokenization)
		}
	}
	if cfg, ok := c.VectorIndexConfig.(map[string]any); ok {
		if d, _ := cfg["distance"].(string); d != "" && d != "cosine" {
			return lore.Errorf(lore.ECONFLICT, "weaviate collection %s uses %s distance, want cosine", c.Class, d)
		}
	}
	return nil
}

// statusCode returns the HTTP status of a client error, or 0.
func statusCode(err error) int {
	var e *fault.WeaviateClientError
	if errors.As(err, &e) {
		return e.StatusCode
	}
	return 0
}

// wrapErr makes a client error wrappable and maps the failures whose meaning
// is known: a refused or broken connection, refused credentials and a 503
// are EUNAVAILABLE.
func wrapErr(err error) error {
	var e *fault.WeaviateClientError
	if !errors.As(err, &e) {
		return err
	}
	if cause := e.DerivedFromError; cause != nil {
		// The GraphQL client wraps its transport's client error in a
		// second one, and the type has no Unwrap: look through it.
		var inner *fault.WeaviateClientError
		if errors.As(cause, &inner) {
			return wrapErr(cause)
		}
		// A refused, reset or dropped connection (net.OpError, or a
		// url.Error from the transport, such as EOF when the server went
		// away mid-request) is an outage; our own cancellation is not.
		var opErr *net.OpError
		var urlErr *url.Error
		if (errors.As(cause, &opErr) || errors.As(cause, &urlErr)) && !errors.Is(cause, context.Canceled) && !errors.Is(cause, context.DeadlineExceeded) {
			return fmt.Errorf("%w: %w", lore.Errorf(lore.EUNAVAILABLE, "weaviate is unavailable"), cause)
		}
		return cause
	}
	if e.StatusCode == http.StatusUnauthorized || e.StatusCode == http.StatusForbidden {
		return lore.Errorf(lore.EUNAVAILABLE, "weaviate refused Lore's credentials (HTTP %d); check the API key: %s", e.StatusCode, strings.TrimSpace(e.Msg))
	}
	if e.StatusCode == http.StatusServiceUnavailable {
		return lore.Errorf(lore.EUNAVAILABLE, "weaviate is unavailable: %s", strings.TrimSpace(e.Msg))
	}
	return fmt.Errorf("status %d: %s", e.StatusCode, strings.TrimSpace(e.Msg))
}
