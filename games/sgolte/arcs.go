package sgolte

// arcs returns the number of unbroken arcs that c's neighbours in set form
// around c: 0 with none, 1 when c can leave set without parting them.
func (g *geometry) arcs(c int, set bitset) int {
	a := &g.win[c]
	w := set.window(a.base) << 1
	m := (w>>(a.lo&63)&3 | (w>>(a.mid&63)&7)<<2 | (w>>(a.up&63)&3)<<5) & uint64(a.valid)
	return int(arcRuns[m])
}
