package bench

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLoadLoCoMo(t *testing.T) {
	ds, err := LoadLoCoMo(filepath.Join("..", "fixtures", "bench", "locomo_tiny.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Spaces) != 1 {
		t.Fatalf("spaces=%d, want 1", len(ds.Spaces))
	}
	sp := ds.Spaces[0]
	if len(sp.Sessions) != 2 {
		t.Fatalf("sessions=%d, want 2 (session_3 has a date but no turns)", len(sp.Sessions))
	}
	if want := time.Date(2024, 3, 3, 10, 15, 0, 0, time.UTC); !sp.Sessions[0].Time.Equal(want) {
		t.Errorf("session 1 time=%v, want %v", sp.Sessions[0].Time, want)
	}
	caption := sp.Sessions[0].Turns[2].Text
	if !strings.Contains(caption, "grey cat") {
		t.Errorf("turn D1:3 text=%q, want the image caption kept", caption)
	}
	// The category-5 question's evidence names no turn, so it is skipped.
	if len(sp.Questions) != 4 {
		t.Fatalf("questions=%d, want 4", len(sp.Questions))
	}
	q := sp.Questions[1]
	if strings.Join(q.GoldTurns, ",") != "D2:2,D1:1" {
		t.Errorf("normalised evidence=%v, want [D2:2 D1:1]", q.GoldTurns)
	}
	if len(q.GoldSesses) != 2 {
		t.Errorf("gold sessions=%v, want two", q.GoldSesses)
	}
	if q.Group != "1" {
		t.Errorf("group=%q, want 1", q.Group)
	}
	if !q.Time.After(sp.Sessions[1].Time) {
		t.Errorf("question time %v is not after the last session", q.Time)
	}
}

func TestLoadLongMemEval(t *testing.T) {
	path := filepath.Join("..", "fixtures", "bench", "longmemeval_tiny.jsonl")
	tests := []struct {
		name      string
		userOnly  bool
		wantTurns int
	}{
		{"user turns", true, 2},
		{"all turns", false, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds, err := LoadLongMemEval(path, tt.userOnly)
			if err != nil {
				t.Fatal(err)
			}
			if len(ds.Spaces) != 1 {
				t.Fatalf("spaces=%d, want 1 (the _abs question is skipped)", len(ds.Spaces))
			}
			sp := ds.Spaces[0]
			n := 0
			for _, s := range sp.Sessions {
				n += len(s.Turns)
			}
			if n != tt.wantTurns {
				t.Errorf("turns=%d, want %d", n, tt.wantTurns)
			}
			q := sp.Questions[0]
			if strings.Join(q.GoldTurns, ",") != "answer_s-b_1" || strings.Join(q.GoldSesses, ",") != "answer_s-b" {
				t.Errorf("gold turns=%v sessions=%v, want [answer_s-b_1] [answer_s-b]", q.GoldTurns, q.GoldSesses)
			}
			if ds.SessionOf["tiny-q1|answer_s-b_1"] != "answer_s-b" {
				t.Errorf("SessionOf lacks answer_s-b_1")
			}
		})
	}
}

func TestLocomoTime(t *testing.T) {
	got, err := LocomoTime("1:56 pm on 8 May, 2023")
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("LocomoTime=%v, want %v", got, want)
	}
	if _, err := LocomoTime(" 7:00 pm on 1 January, 2024 "); err != nil {
		t.Errorf("LocomoTime with padding: %v", err)
	}
	if _, err := LocomoTime("yesterday"); err == nil {
		t.Error("LocomoTime(yesterday) gave no error")
	}
}

func TestParseLoCoMoErrors(t *testing.T) {
	tests := []struct{ name, data, want string }{
		{"not a list of samples", `[1, 2]`, "LoCoMo JSON"},
		{"no sample id", `[{"conversation": {}}]`, "no sample_id"},
		{"bad date", `[{"sample_id":"x","conversation":{"session_1":[{"speaker":"a","dia_id":"D1:1","text":"hi"}],"session_1_date_time":"yesterday"}}]`, `x session_1: date_time "yesterday"`},
		{"no date", `[{"sample_id":"x","conversation":{"session_1":[{"speaker":"a","dia_id":"D1:1","text":"hi"}]}}]`, "no date_time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseLoCoMo([]byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err=%v, want one containing %q", err, tt.want)
			}
		})
	}
}
