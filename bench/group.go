package bench

// OnlyGroup returns a copy of d holding only the questions of one group
// (a LoCoMo category or a LongMemEval question type), and only the spaces
// that still have a question, so that a run over one type ingests only
// what that type asks about. An empty group keeps everything.
func (d *Dataset) OnlyGroup(group string) *Dataset {
	if group == "" {
		return d
	}
	out := *d
	out.Spaces = nil
	for _, sp := range d.Spaces {
		var qs []Question
		for _, q := range sp.Questions {
			if q.Group == group {
				qs = append(qs, q)
			}
		}
		if len(qs) > 0 {
			sp.Questions = qs
			out.Spaces = append(out.Spaces, sp)
		}
	}
	return &out
}
