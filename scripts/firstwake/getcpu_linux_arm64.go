package main

// sysGetcpu is getcpu(2)'s number on linux/arm64.
const sysGetcpu = 168
