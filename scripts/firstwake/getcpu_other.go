//go:build !linux || !(amd64 || arm64)

package main

// currentCPU is -1 where the program does not know getcpu's number.
func currentCPU() int { return -1 }
