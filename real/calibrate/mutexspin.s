// Empty: its presence lets mutexspin.go declare doSpin without a body,
// to be linked to the runtime's sync.runtime_doSpin by go:linkname.
