// Package onnxrt runs Lore's built-in ONNX models (embed/bert, embed/e5) on
// ONNX Runtime, through cgo and github.com/yalue/onnxruntime_go. It owns the
// one piece of process state that library forces: ONNX Runtime's
// environment, bound to one shared library, which every session of the
// process shares. Sessions count their use of it, and the last Close tears
// it down.
//
// A binary built with CGO_ENABLED=0 still compiles: Open then returns
// EUNAVAILABLE (onnxrt_nocgo.go).
package onnxrt

// Options configures a session.
type Options struct {
	// Model is the .onnx file; Library the ONNX Runtime shared library.
	Model, Library string
	// Threads is the number of threads one inference uses.
	Threads int
	// Inputs and Output name the graph's int64 [rows, seq] inputs
	// (input_ids, attention_mask) and its float32 [rows, dim] output.
	Inputs []string
	Output string
	// Dim is the length of one output row.
	Dim int
}
