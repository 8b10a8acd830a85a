package match_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/match"
)

// TestSpectatorChat (issue 27): anyone who holds no seat chats with the
// other spectators. The line says who said it and no seat (a spectator
// cannot speak as a player: the owner finds the seat, the client names
// none); the players' room never holds it, nor a spectator's room the
// players' lines; the same checks as the players' chat, a flood limit per
// spectator and one for all of them together; nothing after the game.
func TestSpectatorChat(t *testing.T) {
	n := newNode(t)
	id := n.live(twoHumans("20"))
	dave := match.User{ID: 4}
	n.steps(id, []step{
		{"nobody signed in", say(match.User{}, "hi"), match.CodeForbidden},
		{"empty", say(carol, "   "), match.CodeBadRequest},
		{"too long", say(carol, strings.Repeat("é", match.ChatMaxRunes+1)), match.CodeBadRequest},
		{"two lines", say(carol, "a\nb"), match.CodeBadRequest},
		{"a bell", say(carol, "a\x07b"), match.CodeBadRequest},
		{"a bidi override", say(carol, "abc\u202Egpj.exe"), match.CodeBadRequest},
		{"invalid UTF-8", say(carol, "a\xffb"), match.CodeBadRequest},
		{"a spectator", match.Command{Kind: match.CmdChat, User: carol, Text: "hi all", Seat: 0}, ""},
		{"a player", say(alice, "gl"), ""},
		{"markup is text", say(dave, `<img src=x onerror="alert(1)">`), ""},
	})
	var lines []match.ChatLine
	for _, e := range n.events.All() {
		if e.Kind == match.EventChat {
			lines = append(lines, *e.Chat)
		}
	}
	if len(lines) != 3 || lines[0].Seat != match.SpectatorSeat || lines[0].User != carol.ID || lines[0].Text != "hi all" ||
		lines[1].Seat != 0 || lines[2].Text != `<img src=x onerror="alert(1)">` || lines[2].User != dave.ID {
		t.Fatalf("lines heard: %+v", lines)
	}
	// Each reader's room holds its own chat only.
	for _, u := range []match.User{alice, bob} {
		if r := n.room(id, u); len(r.Chat) != 1 || r.Chat[0].Text != "gl" {
			t.Fatalf("player %d's room: %+v", u.ID, r.Chat)
		}
	}
	if r := n.room(id, carol); len(r.Chat) != 2 || r.Chat[0].Text != "hi all" || r.Chat[1].User != dave.ID {
		t.Fatalf("a spectator's room: %+v", r.Chat)
	}

	// A flood: carol has ChatBurst lines (one said), then one per ChatEvery;
	// dave is not limited by her.
	for i := 1; i < match.ChatBurst; i++ {
		n.must(id, say(carol, "spam"))
	}
	n.steps(id, []step{{"carol floods", say(carol, "spam"), match.CodeRateLimited}, {"dave speaks", say(dave, "ok"), ""}})
	n.time.Advance(match.ChatEvery)
	n.must(id, say(carol, "again"))
	// Many spectators together are held to SpectatorChatBurst at once.
	said := 0
	for uid := int64(100); uid < 100+match.SpectatorChatBurst+5; uid++ {
		if _, err := n.do(id, say(match.User{ID: uid}, "crowd")); err == nil {
			said++
		} else if codeOf(err) != match.CodeRateLimited {
			t.Fatalf("a crowd's line: %v", err)
		}
	}
	if said >= match.SpectatorChatBurst {
		t.Fatalf("%d spectators said %d lines at once; all of them together may say fewer than %d", match.SpectatorChatBurst+5, said, match.SpectatorChatBurst)
	}
	// The room keeps the last ChatKeep lines of each chat.
	for i := 0; i < match.ChatKeep+3; i++ {
		n.time.Advance(match.ChatEvery)
		n.must(id, say(match.User{ID: int64(1000 + i)}, fmt.Sprint("w", i)))
	}
	if r := n.room(id, dave); len(r.Chat) != match.ChatKeep || r.Chat[len(r.Chat)-1].Text != fmt.Sprint("w", match.ChatKeep+2) {
		t.Fatalf("a spectator's room keeps %d lines", len(r.Chat))
	}
	if r := n.room(id, alice); len(r.Chat) != 1 {
		t.Fatalf("the players' chat holds %d lines", len(r.Chat))
	}

	// Over: nobody says anything any more.
	n.must(id, match.Command{Kind: match.CmdResign, User: bob, Ply: -1})
	n.time.Advance(match.ChatEvery)
	if _, err := n.do(id, say(carol, "gg")); err == nil {
		t.Fatal("a spectator chatted in a finished game")
	}
}
