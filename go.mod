module github.com/schedlab/schedlab

go 1.26.0

require (
	github.com/chromedp/chromedp v0.23.0
	github.com/gdamore/tcell/v2 v2.13.10
	github.com/goccy/go-yaml v1.19.2
	github.com/panjf2000/ants/v2 v2.12.1
	github.com/rivo/tview v0.42.0
	github.com/rivo/uniseg v0.4.7
	github.com/spf13/cobra v1.10.2
	github.com/yeqown/go-qrcode/v2 v2.3.0
	github.com/yuin/goldmark v1.8.7
	go.uber.org/goleak v1.3.0
	golang.org/x/exp v0.0.0-20261014143641-f0251eb4aa3e
	golang.org/x/image v0.33.0
	golang.org/x/perf v0.0.0-20250813145418-2f7363a06fe1
	golang.org/x/sync v0.24.0
	golang.org/x/sys v0.38.0
	golang.org/x/term v0.37.0
)

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/gdamore/encoding v1.0.1 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/lucasb-eyer/go-colorful v1.3.0 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	github.com/yeqown/reedsolomon v1.0.0 // indirect
	golang.org/x/text v0.31.0 // indirect
)
