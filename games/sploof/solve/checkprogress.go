package solve

// A full check of a strategy proves every leaf, which takes hours; what it
// has proved is kept in a small file (a bit a leaf, in the order of the
// sorted leaf keys the walk finds), so that a check interrupted at any
// moment goes on where it stopped — on any machine, from the committed file.

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"os"
	"sync/atomic"
)

// progressMagic opens a progress file (inside its gzip stream);
// boundMagic one of a check of wins by a given ply, whose header carries
// that ply too, so that the leaves of one bound are never taken for
// another's.
const (
	progressMagic = "SPCHKPG1"
	boundMagic    = "SPCHKPB1"
)

// checkProgress is which leaves of one strategy a check has proved.
type checkProgress struct {
	path    string
	rootKey uint64
	leafPly uint8
	count   uint64 // leaves
	crc     uint32 // CRC-32C of the sorted leaf keys
	within  uint8  // the ply the winner wins by, 0 for any
	words   []uint32
}

// leavesCRC identifies a leaf list: the CRC-32C of its keys, little endian.
func leavesCRC(leaves []uint64) uint32 {
	h := crc32.New(crc32.MakeTable(crc32.Castagnoli))
	var b [8]byte
	for _, k := range leaves {
		binary.LittleEndian.PutUint64(b[:], k)
		h.Write(b[:])
	}
	return h.Sum32()
}

// openProgress reads path's progress for s's sorted leaves proved won by
// ply within (0: by any), or starts none proved when the file does not
// exist. A file of another strategy, leaf list or bound, or a damaged one,
// is refused.
func openProgress(path string, s *Strategy, leaves []uint64, within int) (*checkProgress, error) {
	p := &checkProgress{path: path, rootKey: s.RootKey, leafPly: uint8(s.LeafPly), count: uint64(len(leaves)),
		crc: leavesCRC(leaves), within: uint8(within), words: make([]uint32, (len(leaves)+31)/32)}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := p.read(f); err != nil {
		return nil, fmt.Errorf("the progress file %s: %w", path, err)
	}
	return p, nil
}

func (p *checkProgress) read(r io.Reader) error {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return err
	}
	br := bufio.NewReader(zr)
	var head struct {
		Magic   [8]byte
		RootKey uint64
		LeafPly uint8
		Count   uint64
		CRC     uint32
	}
	if err := binary.Read(br, binary.LittleEndian, &head); err != nil {
		return fmt.Errorf("its header: %w", err)
	}
	var within uint8
	if string(head.Magic[:]) == boundMagic {
		if err := binary.Read(br, binary.LittleEndian, &within); err != nil {
			return fmt.Errorf("its header: %w", err)
		}
	}
	switch {
	case string(head.Magic[:]) != progressMagic && string(head.Magic[:]) != boundMagic:
		return errors.New("not a strategy check's progress")
	case within != p.within:
		return fmt.Errorf("it proves wins by ply %d, not by ply %d (0: any)", within, p.within)
	case head.RootKey != p.rootKey || head.LeafPly != p.leafPly || head.Count != p.count || head.CRC != p.crc:
		return fmt.Errorf("it is of another strategy (root %016x, %d leaves at ply %d) than this one (root %016x, %d leaves at ply %d)",
			head.RootKey, head.Count, head.LeafPly, p.rootKey, p.count, p.leafPly)
	}
	if err := binary.Read(br, binary.LittleEndian, p.words); err != nil {
		return fmt.Errorf("its leaves: %w", err)
	}
	if n := len(p.words); n > 0 && p.count%32 != 0 && p.words[n-1]>>(p.count%32) != 0 {
		return errors.New("it marks leaves past the last")
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return errors.New("it goes on past its leaves")
	}
	return zr.Close()
}

// save writes the progress whole or not at all.
func (p *checkProgress) save() error {
	return saveAtomic(p.path, func(w io.Writer) error {
		zw := gzip.NewWriter(w)
		bw := bufio.NewWriter(zw)
		fields := []any{p.rootKey, p.leafPly, p.count, p.crc}
		if p.within == 0 {
			bw.WriteString(progressMagic)
		} else {
			bw.WriteString(boundMagic)
			fields = append(fields, p.within)
		}
		for _, v := range fields {
			binary.Write(bw, binary.LittleEndian, v)
		}
		words := make([]uint32, len(p.words))
		for i := range words {
			words[i] = atomic.LoadUint32(&p.words[i])
		}
		if err := binary.Write(bw, binary.LittleEndian, words); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		return zw.Close()
	})
}

// done reports whether leaf i is proved.
func (p *checkProgress) done(i int) bool { return atomic.LoadUint32(&p.words[i/32])>>(i%32)&1 != 0 }

// mark records leaf i as proved.
func (p *checkProgress) mark(i int) { atomic.OrUint32(&p.words[i/32], 1<<(i%32)) }

// proved counts the leaves proved.
func (p *checkProgress) proved() int {
	n := 0
	for i := range p.words {
		n += bits.OnesCount32(atomic.LoadUint32(&p.words[i]))
	}
	return n
}
