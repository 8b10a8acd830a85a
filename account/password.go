package account

import (
	"bufio"
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// PasswordCost is the argon2id work factor for new hashes. Stored hashes
// carry their own parameters, so changing it never locks anyone out.
type PasswordCost struct {
	MemoryKiB uint32
	Time      uint32
}

// orDefault is c, or the production cost for the zero value.
func (c PasswordCost) orDefault() PasswordCost {
	if c.MemoryKiB == 0 || c.Time == 0 {
		// OWASP's argon2id recommendation: 19 MiB, 2 passes, 1 lane.
		return PasswordCost{MemoryKiB: 19 * 1024, Time: 2}
	}
	return c
}

const (
	saltLen = 16
	keyLen  = 32
)

var b64 = base64.RawStdEncoding

// HashPassword returns the PHC-format argon2id hash of pw.
func HashPassword(pw string, c PasswordCost) (string, error) {
	c = c.orDefault()
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(pw), salt, c.Time, c.MemoryKiB, 1, keyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=1$%s$%s", argon2.Version, c.MemoryKiB, c.Time, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// CheckPassword reports whether pw matches the stored hash, in constant
// time with respect to the key.
func CheckPassword(pw, hash string) bool {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return false
	}
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || p == 0 || m > 1<<22 || t > 16 {
		return false
	}
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false
	}
	got := argon2.IDKey([]byte(pw), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// Password rules for new passwords, after NIST SP 800-63B: long enough, not
// on a list of common passwords, not a run of one or two characters or a
// sequence like abcdefgh, and not the account's name. No composition rules
// (a digit, a capital): they make passwords harder to remember, not to
// guess. A guesser does not stop at the list: it tries each word
// capitalised, in leet spelling (p@ssw0rd), with a few digits and symbols
// added (password123, letmein!), doubled, and the account's name the same
// ways; so the rules look through those disguises (guessCores).
const (
	minPasswordRunes = 8
	maxPasswordBytes = 256
	minDistinctRunes = 3
)

//go:embed common-passwords.txt
var commonPasswordsFile string

// commonPasswords is the embedded list, lower-cased.
var commonPasswords = sync.OnceValue(func() map[string]struct{} {
	set := map[string]struct{}{}
	sc := bufio.NewScanner(strings.NewReader(commonPasswordsFile))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		set[strings.ToLower(line)] = struct{}{}
	}
	return set
})

// CheckNewPassword says why pw will not do as the password of the account
// name (an *Error with CodeWeakPassword), or returns nil.
func CheckNewPassword(name, pw string) error {
	weak := func(why string) error {
		return errorf(CodeWeakPassword, "choose another password: %s", why)
	}
	if utf8.RuneCountInString(pw) < minPasswordRunes {
		return weak(fmt.Sprintf("it needs at least %d characters", minPasswordRunes))
	}
	if len(pw) > maxPasswordBytes {
		return weak(fmt.Sprintf("it may have at most %d bytes", maxPasswordBytes))
	}
	lower := strings.ToLower(pw)
	lname := strings.ToLower(name)
	if lower == lname {
		return weak("it is the account's name")
	}
	if distinctRunes(pw) < minDistinctRunes {
		return weak("it repeats one or two characters")
	}
	if isSequence(pw) {
		return weak("it is a sequence such as abcdefgh or 98765432")
	}
	if u := repeatedUnit(lower); u != "" && utf8.RuneCountInString(u) <= 4 {
		return weak("it repeats a short pattern")
	}
	for _, core := range guessCores(lower) {
		if _, ok := commonPasswords()[core]; ok {
			if core == lower || core == strings.TrimSpace(lower) {
				return weak("it is one of the most common passwords")
			}
			return weak(fmt.Sprintf("it is the common password %q in disguise", core))
		}
		if utf8.RuneCountInString(lname) >= 3 && nearName(core, lname) {
			return weak("it is the account's name with a few characters changed or added")
		}
	}
	return nil
}

// Bounds of the disguises guessCores takes off: what a guesser's rules
// add to a word.
const (
	maxAddedDigits  = 4 // password1234
	maxAddedSymbols = 3 // letmein!!!
	maxNameExtra    = 4 // alice2024, xxalicexx
	maxNameEdits    = 2 // alcie, alice-7 on a name of five or more
)

// guessCores is the words a guesser would have started from to reach pw
// (lower-cased): pw itself, pw without the trimmed spaces, without a few
// digits and symbols added at either end, undoubled, and each of those
// with its leet spelling undone.
func guessCores(pw string) []string {
	var cores []string
	add := func(c string) {
		if c != "" && !slices.Contains(cores, c) {
			cores = append(cores, c)
		}
	}
	base := []string{pw, strings.TrimSpace(pw)}
	if u := repeatedUnit(pw); u != "" {
		base = append(base, u)
	}
	for _, b := range base {
		for _, c := range []string{b, stripAdded(b)} {
			add(c)
			for _, l := range unleet(c) {
				add(l)
				add(stripAdded(l))
			}
		}
	}
	return cores
}

// stripAdded takes off s's leading and trailing runs of digits and symbols,
// each when a guesser would add it (at most maxAddedDigits digits — or any run
// that is a sequence, a repeat or itself a common password — and at most
// maxAddedSymbols symbols).
func stripAdded(s string) string {
	rs := []rune(s)
	start := slices.IndexFunc(rs, unicode.IsLetter)
	if start < 0 {
		return s // nothing but digits and symbols: the list and the other rules judge it whole
	}
	end := start + 1
	for i := len(rs) - 1; i > start; i-- {
		if unicode.IsLetter(rs[i]) {
			end = i + 1
			break
		}
	}
	if !guessableAddition(string(rs[:start])) {
		start = 0
	}
	if !guessableAddition(string(rs[end:])) {
		end = len(rs)
	}
	return string(rs[start:end])
}

// guessableAddition reports whether a guesser's rules would add a: few
// digits or a run that is a sequence, a repeat or common, and few symbols.
func guessableAddition(a string) bool {
	var digits, symbols strings.Builder
	for _, r := range a {
		if unicode.IsDigit(r) {
			digits.WriteRune(r)
		} else {
			symbols.WriteRune(r)
		}
	}
	d := digits.String()
	if utf8.RuneCountInString(symbols.String()) > maxAddedSymbols {
		return false
	}
	if n := utf8.RuneCountInString(d); n <= maxAddedDigits || distinctRunes(d) <= 2 || isSequence(d) {
		return true
	}
	_, common := commonPasswords()[d]
	return common
}

// leet is how leet spelling writes letters.
var leet = map[rune][]rune{'0': {'o'}, '1': {'i', 'l'}, '3': {'e'}, '4': {'a'}, '5': {'s'}, '7': {'t'}, '8': {'b'}, '@': {'a'}, '$': {'s'}, '!': {'i'}, '|': {'l'}, '+': {'t'}}

// unleet is s with leet letters read back, inside its letters only (the
// digits at its ends are stripAdded's): one reading per choice of the
// ambiguous ones, at most a few.
func unleet(s string) []string {
	rs := []rune(s)
	first := slices.IndexFunc(rs, unicode.IsLetter)
	if first < 0 {
		return nil
	}
	last := first
	for i := len(rs) - 1; i > first; i-- {
		if unicode.IsLetter(rs[i]) {
			last = i
			break
		}
	}
	outs := [][]rune{slices.Clone(rs)}
	for i := first; i <= last && len(outs) <= 8; i++ {
		alts, ok := leet[rs[i]]
		if !ok {
			continue
		}
		var next [][]rune
		for _, o := range outs {
			for _, a := range alts {
				c := slices.Clone(o)
				c[i] = a
				next = append(next, c)
			}
		}
		outs = next
	}
	var res []string
	for _, o := range outs {
		if string(o) != s {
			res = append(res, string(o))
		}
	}
	return res
}

// repeatedUnit is the shortest u such that s is u repeated twice or more,
// or "".
func repeatedUnit(s string) string {
	rs := []rune(s)
	for n := 1; n <= len(rs)/2; n++ {
		if len(rs)%n != 0 {
			continue
		}
		if strings.Repeat(string(rs[:n]), len(rs)/n) == s {
			return string(rs[:n])
		}
	}
	return ""
}

// nearName reports whether core is the (lower-cased) name with a few
// characters added around or inside it, reversed, or a few edits away.
func nearName(core, name string) bool {
	if i := strings.Index(core, name); i >= 0 && utf8.RuneCountInString(core)-utf8.RuneCountInString(name) <= maxNameExtra {
		return true
	}
	rn := []rune(name)
	slices.Reverse(rn)
	if core == string(rn) {
		return true
	}
	return utf8.RuneCountInString(name) >= 5 && editDistance(core, name) <= maxNameEdits
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// distinctRunes is how many different characters s has.
func distinctRunes(s string) int {
	seen := map[rune]bool{}
	for _, r := range s {
		seen[r] = true
	}
	return len(seen)
}

// isSequence reports whether each character of s is the one after (or
// each the one before) the previous.
func isSequence(s string) bool {
	rs := []rune(s)
	step := rs[1] - rs[0]
	if step != 1 && step != -1 {
		return false
	}
	for i := 2; i < len(rs); i++ {
		if rs[i]-rs[i-1] != step {
			return false
		}
	}
	return true
}
