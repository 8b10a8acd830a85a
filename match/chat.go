package match

import (
	"cmp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// The game room's two chats (issue 27): the players' and the spectators'.
// Who says a line decides where it goes: a player's line is the players'
// chat, heard by the players alone; anyone else's (a signed-in user who
// holds no seat) is the spectators' chat, heard by the spectators alone —
// the players never see it during their game, as on lichess, and a
// spectator cannot speak as a seat: the seat is the owner's lookup, never
// the client's word. Neither chat is stored: the owner keeps the last
// ChatKeep lines of each for whoever reconnects, and they are gone with the
// owner (the end of the game, a restart). A line is text only — the clients
// show it as text, never as markup — and nothing in it ever reaches the
// game. Both chats have the same limits: CleanChat, and ChatBurst lines at
// once then one every ChatEvery per person (per seat, per spectator); the
// spectators together say at most SpectatorChatBurst lines at once and then
// one every SpectatorChatEvery, so that many accounts cannot flood it
// either.

// Chat limits.
const (
	ChatMaxRunes = 200 // characters in a line
	ChatKeep     = 50  // lines kept, per chat, for those who reconnect
	// A seat (or a spectator) may say ChatBurst lines at once, and then
	// one more every ChatEvery.
	ChatBurst = 5
	ChatEvery = 2 * time.Second
	// All the spectators of a game together: SpectatorChatBurst lines at
	// once, then one every SpectatorChatEvery.
	SpectatorChatBurst = 20
	SpectatorChatEvery = 500 * time.Millisecond
	// SpectatorSeat is a spectators' line's Seat (ChatLine.User says who).
	SpectatorSeat = -1
)

// maxSpectatorBuckets bounds the spectators' allowances kept: past it, the
// full ones (of spectators quiet for ChatBurst×ChatEvery) are dropped — a
// full allowance is what a newcomer gets anyway.
const maxSpectatorBuckets = 1000

type chat struct {
	n      int64
	recent []ChatLine     // the last ChatKeep lines of the players' chat
	tokens map[int]bucket // per seat
	// The spectators' chat: its last ChatKeep lines, an allowance per
	// user and one for all of them.
	watchers []ChatLine
	wtokens  map[int64]bucket
	wall     bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

// lines is the last lines of both chats in the order said (a line's N
// counts both); roomFor and the server give each reader only theirs.
func (c *chat) lines() []ChatLine {
	out := make([]ChatLine, 0, len(c.recent)+len(c.watchers))
	out = append(out, c.recent...)
	out = append(out, c.watchers...)
	slices.SortFunc(out, func(a, b ChatLine) int { return cmp.Compare(a.N, b.N) })
	return out
}

// linesFor is the chat a reader may see: the players' for a player, the
// spectators' for anyone else.
func (c *chat) linesFor(player bool) []ChatLine {
	if player {
		return slices.Clone(c.recent)
	}
	return slices.Clone(c.watchers)
}

// spend takes one line from b at now, refilled at one per every up to
// burst; false when none is left.
func (b *bucket) spend(now time.Time, burst float64, every time.Duration) bool {
	if b.at.IsZero() {
		b.tokens, b.at = burst, now
	}
	b.tokens = min(burst, b.tokens+float64(now.Sub(b.at))/float64(every))
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// take spends one line of seat's allowance at now; false when it has none.
func (c *chat) take(seat int, now time.Time) bool {
	if c.tokens == nil {
		c.tokens = map[int]bucket{}
	}
	b := c.tokens[seat]
	ok := b.spend(now, ChatBurst, ChatEvery)
	c.tokens[seat] = b
	return ok
}

// takeSpectator spends one line of spectator uid's allowance and one of
// all the spectators' at now; false (spending nothing) when either has none.
func (c *chat) takeSpectator(uid int64, now time.Time) bool {
	if c.wtokens == nil {
		c.wtokens = map[int64]bucket{}
	}
	if len(c.wtokens) >= maxSpectatorBuckets {
		for id, b := range c.wtokens {
			if now.Sub(b.at) >= ChatBurst*ChatEvery {
				delete(c.wtokens, id)
			}
		}
	}
	b, all := c.wtokens[uid], c.wall
	if !b.spend(now, ChatBurst, ChatEvery) || !all.spend(now, SpectatorChatBurst, SpectatorChatEvery) {
		return false
	}
	c.wtokens[uid], c.wall = b, all
	return true
}

// keep appends line to lines, keeping the last ChatKeep.
func keep(lines []ChatLine, line ChatLine) []ChatLine {
	lines = append(lines, line)
	if over := len(lines) - ChatKeep; over > 0 {
		lines = append(lines[:0:0], lines[over:]...)
	}
	return lines
}

// say is CmdChat: a player's line goes to the players' chat, anyone
// else's to the spectators'.
func (m *Match) say(u User, text string) error {
	if m.meta.Status != Open && m.meta.Status != Live {
		return errorf(CodeGameOver, "the game is over")
	}
	if u.ID == 0 {
		return errorf(CodeForbidden, "sign in to chat")
	}
	seat := m.meta.SeatOf(u.ID)
	text, err := CleanChat(text)
	if err != nil {
		return err
	}
	now := m.reg.cfg.Time.Now()
	c := &m.room.chat
	if seat < 0 {
		if !c.takeSpectator(u.ID, now) {
			return errorf(CodeRateLimited, "too many lines; wait a moment")
		}
		c.n++
		line := ChatLine{N: c.n, Seat: SpectatorSeat, User: u.ID, Text: text, At: now}
		c.watchers = keep(c.watchers, line)
		m.publishRoom(Event{Kind: EventChat, Chat: &line})
		return nil
	}
	if !c.take(seat, now) {
		return errorf(CodeRateLimited, "too many lines; wait a moment")
	}
	c.n++
	line := ChatLine{N: c.n, Seat: seat, User: u.ID, Text: text, At: now}
	c.recent = keep(c.recent, line)
	m.publishRoom(Event{Kind: EventChat, Chat: &line})
	return nil
}

// CleanChat is a line of chat as it may be said: trimmed, one line of at
// most ChatMaxRunes characters, valid UTF-8 without control characters,
// line or paragraph separators (U+2028, U+2029: a second line), the
// bidirectional controls that would make it display as something else
// (overrides, embeddings, isolates and the marks U+200E, U+200F, U+061C),
// or U+FFFD, which is what invalid text (a lone surrogate in JSON, a bad
// byte) decodes to.
func CleanChat(text string) (string, error) {
	if !utf8.ValidString(text) {
		return "", errorf(CodeBadRequest, "a chat line must be valid UTF-8")
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return "", errorf(CodeBadRequest, "say something")
	}
	if n := utf8.RuneCountInString(text); n > ChatMaxRunes {
		return "", errorf(CodeBadRequest, "a chat line is at most %d characters; this is %d", ChatMaxRunes, n)
	}
	for _, r := range text {
		switch {
		case r == utf8.RuneError:
			return "", errorf(CodeBadRequest, "a chat line must be valid text (U+FFFD stands for invalid UTF-8 or a lone surrogate)")
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			return "", errorf(CodeBadRequest, "a chat line is one line of text, without control characters or line breaks (U+%04X)", r)
		case bidiControl(r):
			return "", errorf(CodeBadRequest, "a chat line may not reorder its text: no bidirectional controls (U+%04X)", r)
		}
	}
	return text, nil
}

// bidiControl reports the characters that reorder the text around them or
// change its direction: the embeddings and overrides, the isolates and the
// marks.
func bidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == 0x200E || r == 0x200F || r == 0x061C
}
