package match

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// The players' chat. Only players say anything and only players hear it
// (the transport gives EventChat to the game's players alone; spectators
// have no chat). It is not stored: the owner keeps the last ChatKeep lines
// for a player who reconnects, and they are gone with the owner (the end
// of the game, a restart). A line is text only — the clients show it as
// text, never as markup — and nothing in it ever reaches the game.

// Chat limits.
const (
	ChatMaxRunes = 200 // characters in a line
	ChatKeep     = 50  // lines kept for players who reconnect
	// A seat may say ChatBurst lines at once, and then one more every
	// ChatEvery.
	ChatBurst = 5
	ChatEvery = 2 * time.Second
)

type chat struct {
	n      int64
	recent []ChatLine     // the last ChatKeep lines
	tokens map[int]bucket // per seat
}

type bucket struct {
	tokens float64
	at     time.Time
}

func (c *chat) lines() []ChatLine { return append([]ChatLine(nil), c.recent...) }

// take spends one line of seat's allowance at now; false when it has none.
func (c *chat) take(seat int, now time.Time) bool {
	if c.tokens == nil {
		c.tokens = map[int]bucket{}
	}
	b, ok := c.tokens[seat]
	if !ok {
		b = bucket{tokens: ChatBurst, at: now}
	}
	b.tokens = min(ChatBurst, b.tokens+float64(now.Sub(b.at))/float64(ChatEvery))
	b.at = now
	if b.tokens < 1 {
		c.tokens[seat] = b
		return false
	}
	b.tokens--
	c.tokens[seat] = b
	return true
}

// say is CmdChat.
func (m *Match) say(u User, text string) error {
	seat, err := m.playerSeat(u)
	if err != nil {
		if e, ok := err.(*Error); ok && e.Code == CodeForbidden {
			return errorf(CodeForbidden, "only the players chat; spectators have no chat")
		}
		return err
	}
	text, err = CleanChat(text)
	if err != nil {
		return err
	}
	now := m.reg.cfg.Time.Now()
	if !m.room.chat.take(seat, now) {
		return errorf(CodeRateLimited, "too many lines; wait a moment")
	}
	m.room.chat.n++
	line := ChatLine{N: m.room.chat.n, Seat: seat, Text: text, At: now}
	m.room.chat.recent = append(m.room.chat.recent, line)
	if over := len(m.room.chat.recent) - ChatKeep; over > 0 {
		m.room.chat.recent = append(m.room.chat.recent[:0:0], m.room.chat.recent[over:]...)
	}
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
