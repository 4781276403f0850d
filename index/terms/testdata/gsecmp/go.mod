module gsecmp

go 1.26.8

require (
	github.com/go-ego/gse v0.80.3
	github.com/lore-memory/lore v0.0.0
)

require (
	github.com/vcaesar/cedar v0.20.2 // indirect
	golang.org/x/text v0.34.0 // indirect
)

replace github.com/lore-memory/lore => ../../../..
