package table

import (
	"testing"
	"time"
)

func TestFormat(t *testing.T) {
	for n, want := range map[uint64]string{0: "0", 999: "999", 1000: "1,000", 10001: "10,001", 1234567: "1,234,567"} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
	for d, want := range map[time.Duration]string{80: "80ns", 1500: "1.5µs", 12345678: "12.35ms", 512 * time.Millisecond: "512ms", 2 * time.Second: "2.000s"} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%d) = %q, want %q", d, got, want)
		}
	}
	for n, want := range map[uint64]string{300: "300 B", 4096: "4.0 KiB", 5 << 20: "5.0 MiB", 3 << 30: "3.00 GiB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}
