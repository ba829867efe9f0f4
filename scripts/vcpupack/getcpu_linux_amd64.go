package main

// sysGetcpu is getcpu(2)'s number, which package syscall lacks here.
const sysGetcpu = 309
