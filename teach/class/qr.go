package class

import (
	qrcode "github.com/yeqown/go-qrcode/v2"
)

// QR is the QR code of text as modules, true for dark, row by row,
// without the quiet zone: the terminal UI draws it with half blocks.
//
// github.com/yeqown/go-qrcode/v2: maintained (v2.3.0, 2026), pure Go,
// and its core module draws no images itself, so it brings no image
// libraries in; skip2/go-qrcode and rsc.io/qr have not changed since
// 2020 and 2014.
func QR(text string) ([][]bool, error) {
	// Medium correction: a phone reads a code on a projected terminal
	// with some blur, and a URL with a code stays a small version.
	q, err := qrcode.NewWith(text, qrcode.WithErrorCorrectionLevel(qrcode.ErrorCorrectionMedium))
	if err != nil {
		return nil, err
	}
	var m matrix
	if err := q.Save(&m); err != nil {
		return nil, err
	}
	return m.bits, nil
}

// matrix is a qrcode.Writer that keeps the modules.
type matrix struct{ bits [][]bool }

func (m *matrix) Write(mat qrcode.Matrix) error {
	m.bits = mat.Bitmap()
	return nil
}

func (m *matrix) Close() error { return nil }
