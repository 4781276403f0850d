package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/lore-memory/lore"
	openai "github.com/sashabaranov/go-openai"
)

// run gets the model's parsed reply for one batch: from the cache, or from
// one call plus at most one repair call when the first reply does not parse.
// Only replies that parse are cached.
func (x *Extractor) run(ctx context.Context, scope lore.Scope, b batch) (*reply, error) {
	tenant := scope.TenantID
	msgs := x.messages(b)
	key := scopeKey(scope) + cacheKey(x.cfg.Model, PromptVersion, msgs)
	if text, ok, err := x.cache.Get(ctx, key); err != nil {
		x.log.Warn("llm: cache read failed; calling the model", "err", err)
	} else if ok {
		if r, err := parseReply(text); err == nil {
			x.count(tenant, func(u *Usage) { u.CacheHits++ })
			return r, nil
		}
		x.log.Warn("llm: cached reply does not parse; calling the model", "key", key)
	}

	ans, err := x.complete(ctx, tenant, msgs)
	if err != nil {
		return nil, err
	}
	r, perr := parseReply(ans.text)
	if perr != nil {
		if ans.truncated {
			perr = fmt.Errorf("%w; the reply was cut off at the limit of %d tokens, so leave out the least important items", perr, x.cfg.MaxCompletionTokens)
		}
		x.log.Warn("llm: reply does not parse; asking for a repair", "err", perr)
		msgs = append(msgs,
			openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: ans.text},
			openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: x.repairPrompt(perr)},
		)
		if ans, err = x.complete(ctx, tenant, msgs); err != nil {
			return nil, err
		}
		if r, perr = parseReply(ans.text); perr != nil {
			x.log.Warn("llm: repaired reply does not parse either", "tenant", tenant, "err", perr)
			return nil, fmt.Errorf("%w: %w", lore.Errorf(lore.EINTERNAL, "llm: the model's reply is not valid extraction JSON after one repair attempt"), perr)
		}
	}
	if err := x.cache.Put(ctx, key, ans.text); err != nil {
		x.log.Warn("llm: cache write failed", "err", err)
	}
	return r, nil
}

// messages is the chat request for a batch: the system prompt and the input.
func (x *Extractor) messages(b batch) []openai.ChatCompletionMessage {
	return []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: x.system},
		{Role: openai.ChatMessageRoleUser, Content: b.prompt},
	}
}

// answer is the model's reply to one request.
type answer struct {
	text      string
	truncated bool // cut off at MaxCompletionTokens
}

// complete sends one chat request, stepping down the output mode when the
// endpoint rejects it and retrying transient failures with exponential
// backoff.
func (x *Extractor) complete(ctx context.Context, tenant string, msgs []openai.ChatCompletionMessage) (answer, error) {
	for attempt := 0; ; {
		mode := x.mode.Load()
		ans, err := x.once(ctx, tenant, msgs, mode)
		if err == nil {
			return ans, nil
		}
		if ctx.Err() != nil {
			return answer{}, fmt.Errorf("llm: chat completion: %w", ctx.Err())
		}
		if mode < modeInstructions && rejectsResponseFormat(err) {
			// Another worker may have stepped down already; never step back up.
			x.mode.CompareAndSwap(mode, mode+1)
			x.log.Info("llm: endpoint rejects the response format; stepping down", "from", modeName(mode), "err", err)
			continue
		}
		if !transient(err) {
			code := lore.EINTERNAL
			if status(err) == 400 || status(err) == 413 || status(err) == 422 {
				code = lore.EINVALID
			}
			return answer{}, fmt.Errorf("%w: %w", lore.Errorf(code, "llm: the model endpoint refused the request"), err)
		}
		if attempt >= x.cfg.MaxRetries {
			return answer{}, fmt.Errorf("%w: %w", lore.Errorf(lore.EUNAVAILABLE, "llm: the model endpoint is unavailable after %d attempts", attempt+1), err)
		}
		wait := x.backoff(attempt)
		x.log.Warn("llm: transient failure; retrying", "attempt", attempt+1, "wait", wait, "err", err)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return answer{}, fmt.Errorf("llm: chat completion: %w", ctx.Err())
		case <-t.C:
		}
		attempt++
	}
}

// once makes a single HTTP call bounded by the configured timeout.
func (x *Extractor) once(ctx context.Context, tenant string, msgs []openai.ChatCompletionMessage, mode int32) (answer, error) {
	req := openai.ChatCompletionRequest{
		Model:               x.cfg.Model,
		Messages:            msgs,
		MaxCompletionTokens: x.cfg.MaxCompletionTokens,
		Temperature:         max(x.cfg.Temperature, 0),
	}
	switch mode {
	case modeJSONSchema:
		req.ResponseFormat = &openai.ChatCompletionResponseFormat{
			Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{
				Name:   "lore_extraction",
				Schema: json.RawMessage(x.schema),
				Strict: true,
			},
		}
	case modeJSONObject:
		req.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	}
	cctx, cancel := context.WithTimeout(ctx, x.cfg.Timeout)
	defer cancel()
	x.count(tenant, func(u *Usage) { u.Calls++ })
	resp, err := x.client.CreateChatCompletion(cctx, req)
	if err != nil {
		return answer{}, err
	}
	if len(resp.Choices) == 0 {
		return answer{}, nil
	}
	text := resp.Choices[0].Message.Content
	prompt, completion := resp.Usage.PromptTokens, resp.Usage.CompletionTokens
	if prompt == 0 && completion == 0 {
		for _, m := range msgs {
			prompt += estimateTokens(m.Content)
		}
		completion = estimateTokens(text)
	}
	x.count(tenant, func(u *Usage) {
		u.PromptTokens += int64(prompt)
		u.CompletionTokens += int64(completion)
	})
	ans := answer{text: text, truncated: resp.Choices[0].FinishReason == openai.FinishReasonLength}
	if ans.truncated {
		x.log.Warn("llm: reply cut off at the completion token limit", "max_completion_tokens", x.cfg.MaxCompletionTokens)
	}
	return ans, nil
}

// backoff is the wait before retry attempt+1: RetryBase doubled per
// attempt, capped at RetryMax, with up to a fifth of jitter so workers that
// failed together do not retry together.
func (x *Extractor) backoff(attempt int) time.Duration {
	d := x.cfg.RetryBase << min(attempt, 30)
	if d <= 0 || d > x.cfg.RetryMax {
		d = x.cfg.RetryMax
	}
	return d - time.Duration(rand.Int64N(int64(d)/5+1))
}

// status is the HTTP status of a failed call, or 0 when it got none.
func status(err error) int {
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		return apiErr.HTTPStatusCode
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		return reqErr.HTTPStatusCode
	}
	return 0
}

// transient reports whether a failure may pass by itself: rate limits,
// server errors, timeouts and broken connections.
func transient(err error) bool {
	switch s := status(err); {
	case s == 408 || s == 429 || s >= 500:
		return true
	case s != 0:
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var netErr net.Error
	var urlErr *url.Error
	return errors.As(err, &netErr) || errors.As(err, &urlErr)
}

// rejectsResponseFormat reports whether the endpoint refused the request
// because of its response_format, as endpoints without structured output do.
func rejectsResponseFormat(err error) bool {
	if s := status(err); s != 400 && s != 422 {
		return false
	}
	msg := strings.ToLower(err.Error())
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		msg += strings.ToLower(string(reqErr.Body))
	}
	return strings.Contains(msg, "response_format") || strings.Contains(msg, "json_schema") || strings.Contains(msg, "response format")
}

func modeName(mode int32) string {
	switch mode {
	case modeJSONSchema:
		return "json_schema"
	case modeJSONObject:
		return "json_object"
	}
	return "instructions"
}
