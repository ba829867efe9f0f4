module github.com/schedlab/schedlab

go 1.26
