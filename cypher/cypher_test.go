package cypher

import (
	"strings"
	"testing"
)

func TestSchemaIsIdempotent(t *testing.T) {
	schema, err := Schema()
	if err != nil {
		t.Fatalf("Schema: %v", err)
	}
	if len(schema) == 0 {
		t.Fatal("len(Schema())=0, want the constraints and indexes")
	}
	for _, stmt := range schema {
		creates := strings.Contains(stmt, "CREATE ") && strings.Contains(stmt, "IF NOT EXISTS")
		drops := strings.Contains(stmt, "DROP ") && strings.Contains(stmt, "IF EXISTS")
		if !creates && !drops {
			t.Errorf("schema statement neither CREATE … IF NOT EXISTS nor DROP … IF EXISTS, want every one idempotent:\n%s", stmt)
		}
	}
}

func TestStatements(t *testing.T) {
	all, err := Statements()
	if err != nil {
		t.Fatalf("Statements: %v", err)
	}
	cases := []struct {
		name    string
		wantErr bool
	}{
		{"MergeFact", false},
		{"NeighborhoodOneHop", false},
		{"NoSuchStatement", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src, err := Statement(c.name)
			if (err != nil) != c.wantErr {
				t.Fatalf("Statement(%q) err=%v, want error %v", c.name, err, c.wantErr)
			}
			if !c.wantErr && all[c.name] != src {
				t.Errorf("Statements()[%q] differs from Statement(%q)", c.name, c.name)
			}
		})
	}
}
