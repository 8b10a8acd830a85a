package game

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// OptionSpec describes one option of a game's spec.
type OptionSpec struct {
	Name    string
	Doc     string   // one line for help texts
	Default string   // the value when the option is not given
	Values  []string // the allowed values of an enumerated option
	// For an integer option (Values empty): the inclusive range.
	Min, Max int
	// House marks a rule that is not in the game's own rules but the
	// project's addition (shown to users as a house rule).
	House bool
}

// IsInt reports whether the option takes an integer.
func (o OptionSpec) IsInt() bool { return len(o.Values) == 0 }

func (o OptionSpec) check(v string) error {
	if o.IsInt() {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("%w: %s=%q: want an integer", ErrOption, o.Name, v)
		}
		if n < o.Min || n > o.Max {
			return fmt.Errorf("%w: %s=%d: want %d…%d", ErrOption, o.Name, n, o.Min, o.Max)
		}
		return nil
	}
	for _, a := range o.Values {
		if v == a {
			return nil
		}
	}
	return fmt.Errorf("%w: %s=%q: want one of %s", ErrOption, o.Name, v, strings.Join(o.Values, "|"))
}

// Options are the validated option values of one game, every option present
// (defaults filled in). Build them with ParseOptions or Defaults.
type Options map[string]string

// Defaults returns every option of g at its default value.
func Defaults(g Game) Options {
	o := Options{}
	for _, s := range g.Options() {
		o[s.Name] = s.Default
	}
	return o
}

// ParseOptions reads "key=value" settings for g, rejecting unknown keys,
// bad values and a key given twice with two values, and fills in defaults
// for the rest.
func ParseOptions(g Game, settings []string) (Options, error) {
	o := Defaults(g)
	given := map[string]string{}
	for _, kv := range settings {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("%s: %w %q: want key=value", g.Name(), ErrOption, kv)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		// The same option twice is a slip whichever one was meant: refuse
		// it rather than let the last one win silently.
		if was, twice := given[k]; twice && was != v {
			return nil, fmt.Errorf("%s: %w: %s given twice, %s=%s then %s=%s; give it once", g.Name(), ErrOption, k, k, was, k, v)
		}
		given[k] = v
		if err := o.Set(g, k, v); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// Set validates and sets one option of g.
func (o Options) Set(g Game, key, value string) error {
	if err := o.set(g, key, value); err != nil {
		return fmt.Errorf("%s: %w", g.Name(), err)
	}
	return nil
}

// set is Set with an error that does not name the game.
func (o Options) set(g Game, key, value string) error {
	for _, s := range g.Options() {
		if s.Name == key {
			if err := s.check(value); err != nil {
				return err
			}
			o[key] = value
			return nil
		}
	}
	names := make([]string, 0, len(g.Options()))
	for _, s := range g.Options() {
		names = append(names, s.Name)
	}
	return fmt.Errorf("%w: unknown option %q (options: %s)", ErrOption, key, strings.Join(names, ", "))
}

// Complete returns o with every option of g present: nil or partial option
// maps (from code, not from users) get the defaults for what is missing, and
// every given value is validated.
func Complete(g Game, o Options) (Options, error) {
	out, err := CheckOptions(g, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", g.Name(), err)
	}
	return out, nil
}

// CheckOptions is Complete with an error that does not name the game, for
// callers whose own error already does: a position parser reports
// "sploof: invalid position: invalid option: first=…", not the game twice.
// Keys are checked in sorted order, so the error is always the same one.
func CheckOptions(g Game, o Options) (Options, error) {
	out := Defaults(g)
	for _, k := range slices.Sorted(maps.Keys(o)) {
		if err := out.set(g, k, o[k]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Get returns an option's value ("" if absent).
func (o Options) Get(key string) string { return o[key] }

// Int returns an integer option's value (0 if absent or not a number).
func (o Options) Int(key string) int {
	n, _ := strconv.Atoi(o[key])
	return n
}

// String writes the options as sorted "k=v" pairs separated by commas.
func (o Options) String() string {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k + "=" + o[k])
	}
	return b.String()
}
