package gmp

// BreakForTest corrupts the books the invariants check (the idle P
// count), for tests that the checker notices.
func (s *Machine) BreakForTest() { s.sched.Npidle++ }

// UndeclaredFields is undeclaredFields, for the test over the built-ins.
var UndeclaredFields = undeclaredFields
