//go:build amd64 || arm64

package main

import (
	"syscall"
	"unsafe"
)

// currentCPU is the CPU the calling thread runs on (getcpu(2)), or -1.
func currentCPU() int {
	var cpu uint32
	if _, _, errno := syscall.RawSyscall(sysGetcpu, uintptr(unsafe.Pointer(&cpu)), 0, 0); errno != 0 {
		return -1
	}
	return int(cpu)
}
