package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lore-memory/lore"
)

// ProfileInput is the input of get_profile.
type ProfileInput struct {
	UserID  string `json:"user_id,omitempty" jsonschema:"the user whose profile this is; required unless the API key is pinned to a user"`
	History bool   `json:"history,omitempty" jsonschema:"also return the entries newer ones replaced (e.g. a former city), oldest first"`
}

// ProfileEntryInput is one entry set_profile writes.
type ProfileEntryInput struct {
	Key   string `json:"key" jsonschema:"the profile key, snake_case (e.g. diet, location, language, pet, occupation)"`
	Value string `json:"value" jsonschema:"the value (e.g. vegetarian, Lyon); at most 200 bytes"`
}

// SetProfileInput is the input of set_profile.
type SetProfileInput struct {
	UserID  string              `json:"user_id,omitempty" jsonschema:"the user whose profile this is; required unless the API key is pinned to a user"`
	Entries []ProfileEntryInput `json:"entries" jsonschema:"the entries to set (1 to 100), as things the user stated themselves"`
}

// DeleteProfileKeyInput is the input of delete_profile_key.
type DeleteProfileKeyInput struct {
	UserID string `json:"user_id,omitempty" jsonschema:"the user whose profile this is; required unless the API key is pinned to a user"`
	Key    string `json:"key" jsonschema:"the profile key to forget (e.g. diet), with its history"`
}

// FeedbackInput is the input of record_feedback.
type FeedbackInput struct {
	Scope
	MemoryID string `json:"memory_id" jsonschema:"the id of the memory judged, as search_memory returned it"`
	Helpful  bool   `json:"helpful" jsonschema:"true when the memory helped answer, false when it was wrong or beside the point"`
	Query    string `json:"query,omitempty" jsonschema:"the question the memory was returned for; only a hash of it is kept, to favour memories that answered the same question before"`
}

func (s *Server) addProfileTools(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{
		Name:  "get_profile",
		Title: "Get the user's profile",
		Description: "Get what Lore knows about the user as key/value entries (diet, location, language, pet, occupation…), " +
			"each with its confidence, its source ('explicit': the user stated it; 'inferred': read from weaker cues such as " +
			"what they search for), its evidence (memory ids, or hashes of queries) and when it was last updated. " +
			"Use it to personalise an answer; explicit entries outrank inferred ones.",
		Annotations: &sdk.ToolAnnotations{Title: "Profile", ReadOnlyHint: true, OpenWorldHint: ptr(false)},
	}, s.getProfile)
	sdk.AddTool(srv, &sdk.Tool{
		Name:  "set_profile",
		Title: "Set profile entries",
		Description: "Set entries of the user's profile that the user stated directly (e.g. 'remember that I'm vegan': " +
			"key diet, value vegan). They are stored as explicit entries: a key that holds one value (diet, location…) " +
			"replaces the old value, which stays in the profile's history. Returns what was written and the profile.",
		Annotations: &sdk.ToolAnnotations{Title: "Set profile", DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, s.setProfile)
	sdk.AddTool(srv, &sdk.Tool{
		Name:  "delete_profile_key",
		Title: "Forget a profile key",
		Description: "Forget one key of the user's profile (e.g. 'forget my diet': key diet): its entries, explicit and " +
			"inferred, and their history. Returns the key and how many current entries went; not_found when it held none.",
		Annotations: &sdk.ToolAnnotations{Title: "Forget profile key", DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, s.deleteProfileKey)
	sdk.AddTool(srv, &sdk.Tool{
		Name:  "record_feedback",
		Title: "Rate a memory",
		Description: "Tell Lore whether a memory that search_memory returned helped (helpful true) or not (false). " +
			"Lore keeps the verdict for this user and moves the memory's relevance (starting at 1: up by 0.15 per helpful " +
			"verdict, down by 0.10 per unhelpful one, within bounds); give the query to credit the memory for that question. " +
			"Returns the change applied and the memory's new relevance.",
		Annotations: &sdk.ToolAnnotations{Title: "Rate", DestructiveHint: ptr(false), OpenWorldHint: ptr(false)},
	}, s.recordFeedback)
}

// profilePath is the API path of a user's profile. The user is the one
// given, or the pinned user of the operator or of the caller's key.
func (s *Server) profilePath(extra *sdk.RequestExtra, user string) (string, string, error) {
	user = strings.TrimSpace(user)
	if user == "" {
		user = s.pinnedUser(extra)
	}
	if user == "" {
		return "", "", lore.Errorf(lore.EINVALID, "user_id is required (the API key is not pinned to a user)")
	}
	if err := lore.ValidateID("user_id", user); err != nil {
		return "", "", err
	}
	// A slash would be read as a path step of another route.
	if strings.Contains(user, "/") {
		return "", "", lore.Errorf(lore.EINVALID, "user_id %q holds a slash", user)
	}
	return "/v1/users/" + url.PathEscape(user) + "/profile", user, nil
}

// pinnedUser is the user every call is pinned to: the operator's --user, or
// the user of the caller's API key; "" when calls are not pinned.
func (s *Server) pinnedUser(extra *sdk.RequestExtra) string {
	if s.OperatorTenant != "" {
		return s.OperatorUser
	}
	if extra != nil && extra.TokenInfo != nil {
		if key, ok := extra.TokenInfo.Extra[keyExtra].(*lore.APIKey); ok {
			return key.UserID
		}
	}
	return ""
}

func (s *Server) getProfile(ctx context.Context, req *sdk.CallToolRequest, in ProfileInput) (*sdk.CallToolResult, any, error) {
	path, _, err := s.profilePath(req.Extra, in.UserID)
	if err != nil {
		return nil, nil, err
	}
	var q url.Values
	if in.History {
		q = url.Values{"history": {"true"}}
	}
	return s.toolCall(ctx, req, http.MethodGet, path, q, nil)
}

func (s *Server) setProfile(ctx context.Context, req *sdk.CallToolRequest, in SetProfileInput) (*sdk.CallToolResult, any, error) {
	path, _, err := s.profilePath(req.Extra, in.UserID)
	if err != nil {
		return nil, nil, err
	}
	entries := in.Entries
	if entries == nil {
		entries = []ProfileEntryInput{}
	}
	return s.toolCall(ctx, req, http.MethodPut, path, nil, map[string]any{"entries": entries})
}

func (s *Server) deleteProfileKey(ctx context.Context, req *sdk.CallToolRequest, in DeleteProfileKeyInput) (*sdk.CallToolResult, any, error) {
	path, _, err := s.profilePath(req.Extra, in.UserID)
	if err != nil {
		return nil, nil, err
	}
	key := strings.TrimSpace(in.Key)
	if key == "" {
		return nil, nil, lore.Errorf(lore.EINVALID, "key is required")
	}
	// A key is snake_case: a slash or dot would name another route.
	if strings.ContainsAny(key, "/?#") || key == "." || key == ".." {
		return nil, nil, lore.Errorf(lore.EINVALID, "key %q is not a profile key", key)
	}
	return s.toolCall(ctx, req, http.MethodDelete, path+"/"+url.PathEscape(key), nil, nil)
}

func (s *Server) recordFeedback(ctx context.Context, req *sdk.CallToolRequest, in FeedbackInput) (*sdk.CallToolResult, any, error) {
	path, err := memoryPath(in.MemoryID)
	if err != nil {
		return nil, nil, fmt.Errorf("memory_id: %w", err)
	}
	body := map[string]any{"helpful": in.Helpful}
	if in.Query != "" {
		body["query"] = in.Query
	}
	scopeBody(body, in.Scope)
	delete(body, "run_id") // a verdict is kept per user or agent, not per run
	return s.toolCall(ctx, req, http.MethodPost, path+"/feedback", nil, body)
}

// profileURISuffix ends the URI of a user's profile:
// lore://users/{user_id}/profile.
const profileURISuffix = "/profile"

// ProfileURI returns the resource URI of a user's profile.
func ProfileURI(userID string) string {
	return factsURIPrefix + url.PathEscape(userID) + profileURISuffix
}

// profileEntry is the part of a profile entry the resource shows.
type profileEntry struct {
	Key        string    `json:"key"`
	Value      string    `json:"value"`
	Confidence float64   `json:"confidence"`
	Source     string    `json:"source"`
	Evidence   []string  `json:"evidence"`
	UpdatedAt  time.Time `json:"updated_at"`
}

func (s *Server) readProfile(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	user, ok := userOfURI(uri, profileURISuffix)
	if !ok {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	path, user, err := s.profilePath(req.Extra, user)
	if err != nil {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	var view struct {
		Entries []profileEntry `json:"entries"`
	}
	if err := s.call(ctx, req.Extra, http.MethodGet, path, nil, nil, &view); err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Profile of %s\n\n", user)
	if len(view.Entries) == 0 {
		b.WriteString("No profile entries yet.\n")
	}
	for _, e := range view.Entries {
		fmt.Fprintf(&b, "- %s: %s (%s, confidence %.2f, updated %s)\n", e.Key, e.Value, e.Source, e.Confidence, e.UpdatedAt.UTC().Format("2006-01-02"))
	}
	if len(view.Entries) > 0 {
		b.WriteString("\nExplicit entries were stated by the user; inferred ones come from weaker cues. get_profile gives the evidence.\n")
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: b.String()}}}, nil
}

// userOfURI returns the user of lore://users/{user_id}<suffix>.
func userOfURI(uri, suffix string) (string, bool) {
	raw, ok := strings.CutPrefix(uri, factsURIPrefix)
	if ok {
		raw, ok = strings.CutSuffix(raw, suffix)
	}
	user, err := url.PathUnescape(raw)
	if !ok || err != nil || user == "" || strings.Contains(user, "/") {
		return "", false
	}
	return user, true
}
