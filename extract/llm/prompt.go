package llm

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"strings"
	"text/template"
	"time"
	"unicode"

	"github.com/lore-memory/lore"
)

// PromptVersion names the prompt files in prompts/ that this code renders.
// It is recorded with every fact the extractor produces and is part of the
// cache key, so changing a prompt file means a new version directory.
const PromptVersion = "v1"

//go:embed prompts/v1/system.md prompts/v1/input.tmpl prompts/v1/repair.tmpl prompts/v1/schema.json
var promptFiles embed.FS

// prompts are the parsed prompt files of PromptVersion.
type prompts struct {
	system string
	schema []byte
	input  *template.Template
	repair *template.Template
}

func loadPrompts() (prompts, error) {
	dir := "prompts/" + PromptVersion + "/"
	var p prompts
	system, err := promptFiles.ReadFile(dir + "system.md")
	if err != nil {
		return p, fmt.Errorf("llm: read system prompt: %w", err)
	}
	p.system = strings.TrimSpace(string(system))
	if p.schema, err = promptFiles.ReadFile(dir + "schema.json"); err != nil {
		return p, fmt.Errorf("llm: read schema: %w", err)
	}
	if !json.Valid(p.schema) {
		return p, lore.Errorf(lore.EINTERNAL, "llm: %sschema.json is not valid JSON", dir)
	}
	if p.input, err = template.ParseFS(promptFiles, dir+"input.tmpl"); err != nil {
		return p, fmt.Errorf("llm: parse input template: %w", err)
	}
	if p.repair, err = template.ParseFS(promptFiles, dir+"repair.tmpl"); err != nil {
		return p, fmt.Errorf("llm: parse repair template: %w", err)
	}
	return p, nil
}

// batch is the part of a request that one chat call covers. Message handles
// are local to the batch (its episodes, 1-based) so the same messages make
// the same prompt, and hit the cache, wherever they fall in a request.
// Candidate handles are those of the request.
type batch struct {
	episodes []*lore.Episode
	entities map[int]bool // candidate entity handles shown to the model
	facts    map[int]bool // candidate fact handles shown to the model
	prompt   string       // the rendered input message
}

// Templates' views of the input.
type (
	inputView struct {
		UserName string
		// OtherLanguage is set when a message has letters of a script
		// other than Latin (Chinese, say): the template then asks for
		// facts in the user's language. English prompts are unchanged.
		OtherLanguage bool
		Entities      []entityView
		Facts         []factView
		Messages      []messageView
	}
	entityView struct {
		Handle  int
		Name    string
		Type    string
		Aliases string
	}
	factView struct {
		Handle   int
		Text     string
		Validity string
	}
	messageView struct {
		Handle  int
		Date    string
		Speaker string
		Content string
	}
)

// promptOverhead covers the template's fixed text and the chat format's
// per-message tokens.
const promptOverhead = 96

// plan splits a request into batches whose estimated prompt fits the token
// budget. Candidates are shown in every batch and may take at most half of
// what the fixed prompt leaves; those beyond are left out, in request order,
// so the caller's most relevant candidates should come first. An episode
// larger than the budget on its own still gets a batch of its own.
func (x *Extractor) plan(req lore.ExtractRequest, user userInfo) []batch {
	avail := x.cfg.MaxTokensPerCall - estimateTokens(x.system) - estimateTokens(string(x.schema)) - promptOverhead
	candBudget := avail / 2

	var view inputView
	view.UserName = user.display
	entities, facts := map[int]bool{}, map[int]bool{}
	used := 0
	for i, e := range req.Entities {
		if e == nil {
			continue
		}
		v := entityView{Handle: i + 1, Name: e.Name, Type: e.Type, Aliases: strings.Join(e.Aliases, ", ")}
		cost := estimateTokens(v.Name+v.Type+v.Aliases) + 8
		if used+cost > candBudget/2 {
			x.log.Warn("llm: candidate entities left out of the prompt to fit the token budget", "shown", len(entities), "given", len(req.Entities))
			break
		}
		used += cost
		entities[v.Handle] = true
		view.Entities = append(view.Entities, v)
	}
	for i, f := range req.Facts {
		if f == nil {
			continue
		}
		v := factView{Handle: i + 1, Text: factText(f), Validity: validity(f)}
		cost := estimateTokens(v.Text+v.Validity) + 8
		if used+cost > candBudget {
			x.log.Warn("llm: candidate facts left out of the prompt to fit the token budget", "shown", len(facts), "given", len(req.Facts))
			break
		}
		used += cost
		facts[v.Handle] = true
		view.Facts = append(view.Facts, v)
	}

	msgBudget := avail - used
	var out []batch
	var cur []*lore.Episode
	curCost := 0
	flush := func() {
		if len(cur) > 0 {
			out = append(out, batch{episodes: cur, entities: entities, facts: facts})
			cur, curCost = nil, 0
		}
	}
	for _, ep := range req.Episodes {
		cost := estimateTokens(messageLine(1, ep, user)) + 4
		if len(cur) > 0 && curCost+cost > msgBudget {
			flush()
		}
		if cost > msgBudget {
			x.log.Warn("llm: one episode exceeds the token budget; sending it alone", "episode_id", ep.ID, "estimated_tokens", cost, "budget", msgBudget)
		}
		cur = append(cur, ep)
		curCost += cost
	}
	flush()

	for i := range out {
		v := view
		v.Messages = make([]messageView, len(out[i].episodes))
		for j, ep := range out[i].episodes {
			v.Messages[j] = messageView{Handle: j + 1, Date: formatDate(ep.OccurredAt), Speaker: speaker(ep, user), Content: quote(ep.Content)}
			v.OtherLanguage = v.OtherLanguage || nonLatin(ep.Content)
		}
		var buf bytes.Buffer
		// The template and its data are ours; it cannot fail on any input.
		if err := x.input.Execute(&buf, v); err != nil {
			panic(fmt.Sprintf("llm: input template: %v", err))
		}
		out[i].prompt = buf.String()
	}
	return out
}

// nonLatin reports whether s has a letter of a script other than Latin.
func nonLatin(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r) })
}

// messageLine is one message as the input template renders it, for
// estimating its cost.
func messageLine(handle int, ep *lore.Episode, user userInfo) string {
	return fmt.Sprintf("[%d] %s, %s: %s\n", handle, formatDate(ep.OccurredAt), speaker(ep, user), quote(ep.Content))
}

// estimateTokens over-estimates the tokens of s: a token per three ASCII
// bytes, where English averages about four, and one per other character.
func estimateTokens(s string) int {
	ascii, other := 0, 0
	for _, r := range s {
		if r < 0x80 {
			ascii++
		} else {
			other++
		}
	}
	return (ascii+2)/3 + other
}

func formatDate(t time.Time) string {
	if t.IsZero() {
		return "date unknown"
	}
	return t.Format("Mon 2006-01-02 15:04 MST")
}

func speaker(ep *lore.Episode, user userInfo) string {
	role := ep.Role
	if role == "" {
		role = "user"
	}
	name := ep.Speaker
	if role == "user" && name == "" {
		name = user.display
	}
	if name == "" {
		return role
	}
	return name + " (" + role + ")"
}

// quote renders content as a JSON string, so that a message cannot pose as
// another message or as instructions by its line breaks.
func quote(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// Encoding a string cannot fail.
	_ = enc.Encode(s)
	return strings.TrimSuffix(buf.String(), "\n")
}

func factText(f *lore.Fact) string {
	if t := strings.TrimSpace(f.Text); t != "" {
		return t
	}
	return strings.TrimSpace(f.Subject + " " + strings.ReplaceAll(f.Predicate, "_", " ") + " " + f.Object)
}

func validity(f *lore.Fact) string {
	var parts []string
	if f.ValidAt != nil {
		parts = append(parts, "true since "+f.ValidAt.Format("2006-01-02"))
	}
	if f.InvalidAt != nil {
		parts = append(parts, "no longer true since "+f.InvalidAt.Format("2006-01-02"))
	}
	return strings.Join(parts, ", ")
}

// repairPrompt asks the model to correct a reply that could not be parsed.
func (x *Extractor) repairPrompt(parseErr error) string {
	var buf bytes.Buffer
	if err := x.repair.Execute(&buf, struct{ Error string }{parseErr.Error()}); err != nil {
		panic(fmt.Sprintf("llm: repair template: %v", err))
	}
	return buf.String()
}

// userInfo says how the scope's user is named in prompts and replies.
type userInfo struct {
	// display is the user's name as the prompt shows it, "" when unknown.
	display string
	// name is the subject the extractor reports for facts about the user.
	name string
	// aliases are the normalized names that denote the user in a reply.
	aliases map[string]bool
}

// newUserInfo names the user after the speaker of the user's messages, or
// else the user entity among the candidates, so facts about the user land on
// one entity across batches.
func newUserInfo(req lore.ExtractRequest) userInfo {
	u := userInfo{aliases: map[string]bool{"user": true, "the user": true, "me": true, "i": true, "myself": true}}
	for _, ep := range req.Episodes {
		if ep != nil && ep.Role == "user" && ep.Speaker != "" {
			if u.display == "" {
				u.display = ep.Speaker
			}
			u.aliases[lore.NormalizeName(ep.Speaker)] = true
		}
	}
	for _, e := range req.Entities {
		if e == nil || e.Type != lore.UserEntityType {
			continue
		}
		if u.display == "" && !u.aliases[lore.NormalizeName(e.Name)] {
			u.display = e.Name
		}
		u.aliases[lore.NormalizeName(e.Name)] = true
		for _, a := range e.Aliases {
			u.aliases[lore.NormalizeName(a)] = true
		}
	}
	if req.Scope.UserID != "" {
		u.aliases[lore.NormalizeName(req.Scope.UserID)] = true
	}
	u.name = u.display
	if u.name == "" {
		u.name = "user"
	}
	u.aliases[lore.NormalizeName(u.name)] = true
	return u
}

// is reports whether name denotes the user.
func (u userInfo) is(name string) bool { return u.aliases[lore.NormalizeName(name)] }
