package main

import "fmt"

type Item struct {
	SKU      string
	Quantity int
}

func restock(items []Item, amount int) []Item {
	out := make([]Item, len(items))
	for i, item := range items {
		item.Quantity += amount
		out[i] = item
	}
	return out
}

func main() {
	fmt.Println(restock([]Item{{SKU: "A-1", Quantity: 2}}, 3))
}
