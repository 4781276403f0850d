// Package bench measures retrieval quality on the LoCoMo and LongMemEval
// long-term memory benchmarks: it ingests every turn through Lore's own
// ingestion path, asks each question through the retrieval pipeline under
// several ablations, and scores the source turns of the top results against
// the gold evidence (see ../shared/bench/README.md for the recipe).
package bench

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Turn is one message of a benchmark conversation.
type Turn struct {
	ID        string // the benchmark's turn id, stored as the episode's source_id
	SessionID string
	Role      string
	Speaker   string
	Text      string
	Time      time.Time
}

// Session is a dated group of turns, ingested as one request.
type Session struct {
	ID     string
	Number int // LoCoMo's session number; 0 for LongMemEval
	Time   time.Time
	Turns  []Turn
}

// Question is one retrieval query with its gold evidence.
type Question struct {
	ID         string
	Text       string
	Time       time.Time // "now" for the question
	Group      string    // LoCoMo category or LongMemEval question type
	GoldTurns  []string
	GoldSesses []string
}

// Space is one memory space: what is ingested before its questions are asked.
type Space struct {
	ID        string
	Sessions  []Session
	Questions []Question
}

// turns counts the space's turns.
func (sp Space) turns() int {
	n := 0
	for _, s := range sp.Sessions {
		n += len(s.Turns)
	}
	return n
}

// Dataset is a loaded benchmark.
type Dataset struct {
	Name   string // "locomo" or "longmemeval"
	Spaces []Space
	// SessionOf maps a turn id to its session id, for session-level scores.
	SessionOf map[string]string
	// Split is the half of the dataset Spaces hold (Dataset.Half); empty
	// means all of it.
	Split Split
}

// readMaybeGzip reads a whole file, gunzipping it when its name ends in .gz.
func readMaybeGzip(path string) ([]byte, error) {
	r, err := openMaybeGzip(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return data, nil
}

func openMaybeGzip(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return f, nil
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return struct {
		io.Reader
		io.Closer
	}{zr, f}, nil
}

type locomoTurn struct {
	Speaker     string `json:"speaker"`
	DiaID       string `json:"dia_id"`
	Text        string `json:"text"`
	BlipCaption string `json:"blip_caption"`
}

type locomoSample struct {
	SampleID     string                     `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
	QA           []struct {
		Question string          `json:"question"`
		Evidence []string        `json:"evidence"`
		Category int             `json:"category"`
		Answer   json.RawMessage `json:"answer"`
	} `json:"qa"`
}

var (
	sessionKeyRe = regexp.MustCompile(`^session_(\d+)$`)
	evidenceRe   = regexp.MustCompile(`D:?(\d+):0*(\d+)`)
)

// locomoLayout is LoCoMo's session time, e.g. "1:56 pm on 8 May, 2023".
const locomoLayout = "3:04 pm on 2 January, 2006"

// LocomoTime parses LoCoMo's session dates, "1:56 pm on 8 May, 2023".
func LocomoTime(s string) (time.Time, error) {
	t, err := time.Parse(locomoLayout, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, fmt.Errorf("date_time %q is not like %q", s, "1:56 pm on 8 May, 2023")
	}
	return t, nil
}

func locomoSessionTime(raw json.RawMessage) (time.Time, error) {
	var s string
	if len(raw) == 0 {
		return time.Time{}, errors.New("the session has no date_time")
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return time.Time{}, errors.New("the session's date_time is not a string")
	}
	return LocomoTime(s)
}

// LoadLoCoMo reads a LoCoMo JSON file (gzip by suffix); see ParseLoCoMo.
func LoadLoCoMo(path string) (*Dataset, error) {
	data, err := readMaybeGzip(path)
	if err != nil {
		return nil, fmt.Errorf("locomo: %w", err)
	}
	return ParseLoCoMo(data)
}

// ParseLoCoMo reads LoCoMo's JSON: one space per conversation, one session
// per dated session_N list, every turn a user message named after its
// speaker, dated at the session's time plus a second per turn (LoCoMo dates
// sessions to the minute; the second keeps turns in order), with its dia_id
// as id and its image caption kept in its text. Empty turns are skipped.
// Evidence ids are normalised and QA with no valid evidence left are
// skipped. Both `lore bench` and `lore import` read LoCoMo through it.
func ParseLoCoMo(data []byte) (*Dataset, error) {
	var samples []locomoSample
	if err := json.Unmarshal(data, &samples); err != nil {
		return nil, fmt.Errorf("LoCoMo JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	ds := &Dataset{Name: "locomo", SessionOf: map[string]string{}}
	for si, s := range samples {
		if s.SampleID == "" {
			return nil, fmt.Errorf("LoCoMo sample %d has no sample_id", si)
		}
		sp := Space{ID: s.SampleID}
		var nums []int
		for k, raw := range s.Conversation {
			// Some date keys have no session, and sessions may be empty.
			if m := sessionKeyRe.FindStringSubmatch(k); m != nil && bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
				n, _ := strconv.Atoi(m[1])
				nums = append(nums, n)
			}
		}
		sort.Ints(nums)
		var last time.Time
		for _, n := range nums {
			where := fmt.Sprintf("%s session_%d", s.SampleID, n)
			var turns []locomoTurn
			if err := json.Unmarshal(s.Conversation[fmt.Sprintf("session_%d", n)], &turns); err != nil {
				return nil, fmt.Errorf("LoCoMo %s: %s", where, strings.TrimPrefix(err.Error(), "json: "))
			}
			if len(turns) == 0 {
				continue
			}
			at, err := locomoSessionTime(s.Conversation[fmt.Sprintf("session_%d_date_time", n)])
			if err != nil {
				return nil, fmt.Errorf("LoCoMo %s: %w", where, err)
			}
			sess := Session{ID: fmt.Sprintf("%s/S%d", s.SampleID, n), Number: n, Time: at}
			for i, t := range turns {
				text := strings.TrimSpace(t.Text)
				if c := strings.TrimSpace(t.BlipCaption); c != "" {
					text = strings.TrimSpace(text + " [shared an image: " + c + "]")
				}
				if text == "" {
					continue
				}
				sess.Turns = append(sess.Turns, Turn{
					ID: t.DiaID, SessionID: sess.ID, Role: "user", Speaker: t.Speaker, Text: text,
					Time: at.Add(time.Duration(i) * time.Second),
				})
				ds.SessionOf[s.SampleID+"|"+t.DiaID] = sess.ID
			}
			if at.After(last) {
				last = at
			}
			sp.Sessions = append(sp.Sessions, sess)
		}
		for i, q := range s.QA {
			var gold []string
			seen := map[string]bool{}
			for _, ev := range q.Evidence {
				for _, m := range evidenceRe.FindAllStringSubmatch(ev, -1) {
					id := "D" + m[1] + ":" + m[2]
					if _, ok := ds.SessionOf[s.SampleID+"|"+id]; ok && !seen[id] {
						seen[id] = true
						gold = append(gold, id)
					}
				}
			}
			if len(gold) == 0 {
				continue
			}
			var sessions []string
			ss := map[string]bool{}
			for _, g := range gold {
				if sid := ds.SessionOf[s.SampleID+"|"+g]; !ss[sid] {
					ss[sid] = true
					sessions = append(sessions, sid)
				}
			}
			sp.Questions = append(sp.Questions, Question{
				ID: fmt.Sprintf("%s/q%d", s.SampleID, i), Text: q.Question,
				Time: last.Add(24 * time.Hour), Group: strconv.Itoa(q.Category),
				GoldTurns: gold, GoldSesses: sessions,
			})
		}
		ds.Spaces = append(ds.Spaces, sp)
	}
	return ds, nil
}

type lmeQuestion struct {
	QuestionID         string `json:"question_id"`
	QuestionType       string `json:"question_type"`
	Question           string `json:"question"`
	QuestionDate       string `json:"question_date"`
	HaystackSessionIDs []string
	HaystackDates      []string
	HaystackSessions   [][]struct {
		Role      string `json:"role"`
		Content   string `json:"content"`
		HasAnswer bool   `json:"has_answer"`
	}
	AnswerSessionIDs []string
}

func (q *lmeQuestion) UnmarshalJSON(b []byte) error {
	type plain lmeQuestion
	var aux struct {
		plain
		HaystackSessionIDs json.RawMessage `json:"haystack_session_ids"`
		HaystackDates      json.RawMessage `json:"haystack_dates"`
		HaystackSessions   json.RawMessage `json:"haystack_sessions"`
		AnswerSessionIDs   json.RawMessage `json:"answer_session_ids"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*q = lmeQuestion(aux.plain)
	for _, f := range []struct {
		raw json.RawMessage
		dst any
	}{
		{aux.HaystackSessionIDs, &q.HaystackSessionIDs}, {aux.HaystackDates, &q.HaystackDates},
		{aux.HaystackSessions, &q.HaystackSessions}, {aux.AnswerSessionIDs, &q.AnswerSessionIDs},
	} {
		if len(f.raw) > 0 {
			if err := json.Unmarshal(f.raw, f.dst); err != nil {
				return fmt.Errorf("question %s: %w", q.QuestionID, err)
			}
		}
	}
	return nil
}

// LongMemEvalTime parses "2023/05/28 (Sun) 19:47".
func LongMemEvalTime(s string) (time.Time, error) {
	t, err := time.Parse("2006/01/02 (Mon) 15:04", strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, fmt.Errorf("longmemeval: unrecognised date %q", s)
	}
	return t, nil
}

// LoadLongMemEval reads LongMemEval (JSON lines, or a JSON list; gzip by
// suffix): one space per question holding its haystack. With userTurnsOnly
// (the official protocol) only user turns are ingested, and gold turns are
// those of them marked has_answer. Abstention questions (_abs) are skipped.
func LoadLongMemEval(path string, userTurnsOnly bool) (*Dataset, error) {
	raw, err := readMaybeGzip(path)
	if err != nil {
		return nil, fmt.Errorf("longmemeval: %w", err)
	}
	var qs []lmeQuestion
	if trimmed := strings.TrimSpace(string(raw)); strings.HasPrefix(trimmed, "[") {
		if err := json.Unmarshal(raw, &qs); err != nil {
			return nil, fmt.Errorf("longmemeval: decode %s: %w", path, err)
		}
	} else {
		dec := json.NewDecoder(strings.NewReader(trimmed))
		for dec.More() {
			var q lmeQuestion
			if err := dec.Decode(&q); err != nil {
				return nil, fmt.Errorf("longmemeval: decode %s: %w", path, err)
			}
			qs = append(qs, q)
		}
	}
	ds := &Dataset{Name: "longmemeval", SessionOf: map[string]string{}}
	for _, q := range qs {
		if strings.HasSuffix(q.QuestionID, "_abs") {
			continue
		}
		if len(q.HaystackSessionIDs) != len(q.HaystackSessions) || len(q.HaystackDates) != len(q.HaystackSessions) {
			return nil, fmt.Errorf("longmemeval: question %s: %d session ids, %d dates, %d sessions",
				q.QuestionID, len(q.HaystackSessionIDs), len(q.HaystackDates), len(q.HaystackSessions))
		}
		qt, err := LongMemEvalTime(q.QuestionDate)
		if err != nil {
			return nil, err
		}
		sp := Space{ID: q.QuestionID}
		var gold []string
		for si, turns := range q.HaystackSessions {
			sid := q.HaystackSessionIDs[si]
			at, err := LongMemEvalTime(q.HaystackDates[si])
			if err != nil {
				return nil, err
			}
			sess := Session{ID: sid, Time: at}
			for ti, t := range turns {
				if userTurnsOnly && t.Role != "user" {
					continue
				}
				id := fmt.Sprintf("%s_%d", sid, ti+1)
				sess.Turns = append(sess.Turns, Turn{
					ID: id, SessionID: sid, Role: t.Role, Text: t.Content,
					Time: at.Add(time.Duration(ti) * time.Second),
				})
				ds.SessionOf[q.QuestionID+"|"+id] = sid
				if t.HasAnswer {
					gold = append(gold, id)
				}
			}
			if len(sess.Turns) > 0 {
				sp.Sessions = append(sp.Sessions, sess)
			}
		}
		sp.Questions = []Question{{
			ID: q.QuestionID, Text: q.Question, Time: qt, Group: q.QuestionType,
			GoldTurns: gold, GoldSesses: q.AnswerSessionIDs,
		}}
		ds.Spaces = append(ds.Spaces, sp)
	}
	return ds, nil
}
