package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// factsURIPrefix and factsURISuffix frame the URI of a user's recent facts:
// lore://users/{user_id}/facts.
const (
	factsURIPrefix = "lore://users/"
	factsURISuffix = "/facts"
	recentFacts    = 50
)

// FactsURI returns the resource URI of a user's recent facts.
func FactsURI(userID string) string {
	return factsURIPrefix + url.PathEscape(userID) + factsURISuffix
}

func (s *Server) addResources(srv *sdk.Server) {
	srv.AddResourceTemplate(&sdk.ResourceTemplate{
		Name:        "recent-facts",
		Title:       "A user's recent facts",
		Description: fmt.Sprintf("The user's current facts, newest first (at most %d), one per line with the time since which each holds and its id.", recentFacts),
		MIMEType:    "text/markdown",
		URITemplate: factsURIPrefix + "{user_id}" + factsURISuffix,
	}, s.readFacts)
	srv.AddResourceTemplate(&sdk.ResourceTemplate{
		Name:        "profile",
		Title:       "A user's profile",
		Description: "The user's profile entries (key: value), each explicit (the user stated it) or inferred, with its confidence and when it was updated.",
		MIMEType:    "text/markdown",
		URITemplate: factsURIPrefix + "{user_id}" + profileURISuffix,
	}, s.readProfile)
}

// factLine is the part of a listed memory a facts resource shows.
type factLine struct {
	ID     string `json:"id"`
	Memory string `json:"memory"`
	Fact   *struct {
		ValidAt   *time.Time `json:"valid_at"`
		FirstSeen time.Time  `json:"first_seen"`
		Count     int        `json:"count"`
	} `json:"fact"`
}

func (s *Server) readFacts(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	user, ok := userOfURI(uri, factsURISuffix)
	if !ok {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	var page struct {
		Results []factLine `json:"results"`
		HasMore bool       `json:"has_more"`
	}
	q := url.Values{"user_id": {user}, "type": {"fact"}, "page_size": {fmt.Sprint(recentFacts)}}
	if err := s.call(ctx, req.Extra, http.MethodGet, "/v1/memories", q, nil, &page); err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Current facts about %s (newest first)\n\n", user)
	if len(page.Results) == 0 {
		b.WriteString("No facts yet.\n")
	}
	for _, f := range page.Results {
		since := ""
		if f.Fact != nil {
			t := f.Fact.FirstSeen
			if f.Fact.ValidAt != nil {
				t = *f.Fact.ValidAt
			}
			since = " — since " + t.UTC().Format("2006-01-02")
			if f.Fact.Count > 1 {
				since += fmt.Sprintf(", said %d times", f.Fact.Count)
			}
		}
		fmt.Fprintf(&b, "- %s%s (id %s)\n", f.Memory, since, f.ID)
	}
	if page.HasMore {
		fmt.Fprintf(&b, "\nOlder facts: list_memories with type=fact.\n")
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: b.String()}}}, nil
}
