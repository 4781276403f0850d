// Package cputime reads the process's CPU time, which benchmarks report
// beside wall time because it stays comparable on a shared, busy machine.
package cputime
