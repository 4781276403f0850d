package temporal

import (
	"testing"
	"time"
)

// FuzzParse: any text parses without panicking into spans that start no
// later than they end and whose Text is the input at Offset, in order of
// appearance. (It found Parse slicing the input with offsets into its
// lowercased copy, which is longer when a rune's lower case is: "Ⱥ".)
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"last week", "two years ago", "on 8 May 2023 we met", "since 2019", "in March", "yesterday and tomorrow",
		"3 days ago", "the 1st of June, 2021", "İstanbul last Monday", "next friday", "ȺȺȺȺȺȺȺȺȺȺ last week", "", "99999999999 days ago",
	} {
		f.Add(s, int64(1700000000))
	}
	f.Fuzz(func(t *testing.T, text string, refUnix int64) {
		// Reference times Go can add years and days to without overflow.
		ref := time.Unix(refUnix%(1<<34), 0).UTC()
		prev := -1
		for _, sp := range Parse(text, ref) {
			if sp.End.Before(sp.Start) {
				t.Fatalf("Parse(%q): span %q ends %v before it starts %v", text, sp.Text, sp.End, sp.Start)
			}
			if sp.Offset < 0 || sp.Offset+len(sp.Text) > len(text) || text[sp.Offset:sp.Offset+len(sp.Text)] != sp.Text {
				t.Fatalf("Parse(%q): span %q at offset %d is not the text there", text, sp.Text, sp.Offset)
			}
			if sp.Offset < prev {
				t.Fatalf("Parse(%q): spans out of order", text)
			}
			prev = sp.Offset
		}
	})
}
