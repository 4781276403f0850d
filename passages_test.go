package lore

import (
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// longText returns about n bytes of numbered sentences in paragraphs.
func longText(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "Sentence number %d talks about nothing much at all. ", i)
		if i%12 == 11 {
			b.WriteString("\n\n")
		}
	}
	return b.String()
}

func noSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

func TestPassages(t *testing.T) {
	cases := []struct {
		name    string
		content string
		want    int // passages; 0 means indexed whole
	}{
		{"short turn", "I live in Paris.", 0},
		{"at the threshold", strings.Repeat("a", PassageThreshold), 0},
		{"long message", longText(76 << 10), -1},
		{"no spaces", strings.Repeat("é", PassageThreshold), -1},
		{"one long line of words", strings.Repeat("word ", 3000), -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ps := Passages(c.content)
			if c.want == 0 {
				if ps != nil {
					t.Fatalf("len(Passages)=%d, want nil (indexed whole)", len(ps))
				}
				return
			}
			if len(ps) < 2 {
				t.Fatalf("len(Passages)=%d, want several", len(ps))
			}
			var joined strings.Builder
			prevEnd := 0
			for i, p := range ps {
				if p.Index != i || p.Start < prevEnd || p.End <= p.Start || c.content[p.Start:p.End] != p.Text {
					t.Fatalf("passage %d = {%d %d %d}, want index %d, in order, its text at its offsets", i, p.Index, p.Start, p.End, i)
				}
				if len(p.Text) > MaxPassageBytes || (i < len(ps)-1 && len(p.Text) < minPassageBytes-2) {
					t.Errorf("passage %d is %d bytes, want %d..%d", i, len(p.Text), minPassageBytes, MaxPassageBytes)
				}
				if !utf8.ValidString(p.Text) {
					t.Errorf("passage %d splits a rune", i)
				}
				joined.WriteString(p.Text)
				prevEnd = p.End
			}
			if noSpace(joined.String()) != noSpace(c.content) {
				t.Errorf("passages do not cover the content exactly")
			}
		})
	}
	// Sentences are not cut when they can be kept whole.
	for i, p := range Passages(longText(20 << 10)) {
		if !strings.HasSuffix(p.Text, ".") {
			t.Errorf("passage %d ends %q, want a sentence end", i, p.Text[len(p.Text)-10:])
		}
	}
}

func TestPassageID(t *testing.T) {
	id := PassageID("6e61-ab", 12)
	if ep, n, ok := ParsePassageID(id); !ok || ep != "6e61-ab" || n != 12 {
		t.Fatalf("ParsePassageID(%q)=%q %d %v, want 6e61-ab 12 true", id, ep, n, ok)
	}
	for _, bad := range []string{"6e61-ab", "#p1", "x#p", "x#p-1", "x#p01", "x#pa"} {
		if _, _, ok := ParsePassageID(bad); ok {
			t.Errorf("ParsePassageID(%q) ok, want not a passage id", bad)
		}
	}
}

func TestListItemPassages(t *testing.T) {
	news := "happy new year!! quick list:\n- seeing a lovely lad called Declan\n- left the Lee Swallows, singing with Velvet Static now\n  (more gigs!)\n3) traded the fiesta for a nissan leaf"
	ps := Passages(news)
	want := []string{"- seeing a lovely lad called Declan", "- left the Lee Swallows, singing with Velvet Static now", "3) traded the fiesta for a nissan leaf"}
	if len(ps) != len(want) {
		t.Fatalf("Passages=%+v, want the %d list items", ps, len(want))
	}
	for i, p := range ps {
		if p.Index != i || p.Text != want[i] || news[p.Start:p.End] != p.Text {
			t.Errorf("item %d = %+v, want %q at its offsets", i, p, want[i])
		}
	}
	if !IndexedWhole(news) || IndexedWhole(longText(76<<10)) {
		t.Errorf("IndexedWhole: a short list is indexed whole besides its items, a long message as its passages only")
	}
	for _, content := range []string{
		"I have one point:\n- just this one",
		"Negative numbers: -5 degrees\nand 2.5 kg are no list items",
		strings.Repeat("- a long generated list item that goes on and on\n", 40),
	} {
		if ps := Passages(content); ps != nil {
			t.Errorf("Passages(%.40q)=%d items, want none", content, len(ps))
		}
	}
}
