module clm-go-reference

go 1.22
