package solve

// radixSort sorts a in place, using tmp (at least as long) as scratch: four
// passes of 16 bits, least significant first, skipping a pass whose digit
// is the same in every key (the turn and removal bits of one layer are).
func radixSort(a, tmp []uint64) {
	if len(a) < 2 {
		return
	}
	tmp = tmp[:len(a)]
	var count [1 << 16]int
	src, dst := a, tmp
	for shift := uint(0); shift < 64; shift += 16 {
		clear(count[:])
		for _, k := range src {
			count[k>>shift&0xFFFF]++
		}
		if count[src[0]>>shift&0xFFFF] == len(src) {
			continue
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, k := range src {
			d := k >> shift & 0xFFFF
			dst[count[d]] = k
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &a[0] {
		copy(a, src)
	}
}

// dedupe removes repeats from a sorted slice.
func dedupe(a []uint64) []uint64 {
	if len(a) == 0 {
		return a
	}
	n := 1
	for _, k := range a[1:] {
		if k != a[n-1] {
			a[n] = k
			n++
		}
	}
	return a[:n]
}
