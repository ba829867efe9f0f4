package main

// sysGetcpu is getcpu(2)'s number on linux/amd64.
const sysGetcpu = 309
