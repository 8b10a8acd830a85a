#!/usr/bin/env python3
"""A starter bot for Tabula, standard library only: plays Sgolte, Sploof,
Skjuub and Skyjo legally with a simple heuristic.

Run it against Tabula's random bot:
    tabula play sploof --p1 "exec:python3 examples/bots/python/bot.py" --p2 random
Check it:
    tabula bot check --engine "exec:python3 examples/bots/python/bot.py"

The protocol (docs/bots.md): Tabula writes one JSON object a line on our
standard input and we answer each with one line on standard output.
  {"type":"hello","protocol":2}      -> our hello: protocol, name, games
  {"type":"move", ..., "legal":[..]} -> {"move": one of legal}
Anything else we do not know, we ignore. Logs go to standard error.
"""
import json
import random
import sys

NAME = "starter-python 1.0"
GAMES = ["sgolte", "sploof", "skjuub", "skyjo"]


def sgolte(view, legal, seat):
    # Flipping stones splits the opponent's groups: flip as many as we can,
    # and among equals place where we touch the fewest of our own stones
    # (measured: this beats the random bot in nearly every game; placing
    # next to our own stones or near the middle loses nearly every game).
    me = view["toMove"]
    mine = set(view[me])
    size = view["size"]

    def score(m):
        if m in ("swap", "pass"):
            return (-1, 0)  # never swap: the simplest answer to the pie rule
        flips = m.count(",") + 1 if "(" in m else 0
        cell = m.split("(")[0]
        return (flips, -sum(1 for n in neighbours(cell, size) if n in mine))

    top = max(score(m) for m in legal)
    return random.choice([m for m in legal if score(m) == top])


def neighbours(cell, size):
    """The cells next to a Sgolte cell such as "e5" (rows a.. from the bottom,
    numbered from 1 at the left; the middle row is the longest)."""
    r, k, mid = ord(cell[0]) - ord("a"), int(cell[1:]), size - 1
    up = [(r + 1, k), (r + 1, k + 1)] if r < mid else [(r + 1, k - 1), (r + 1, k)]
    down = [(r - 1, k), (r - 1, k + 1)] if r > mid else [(r - 1, k - 1), (r - 1, k)]
    out = []
    for row, num in [(r, k - 1), (r, k + 1)] + up + down:
        if 0 <= row <= 2 * mid and 1 <= num <= size + min(row, 2 * mid - row):
            out.append(chr(ord("a") + row) + str(num))
    return out


def sploof(view, legal, seat):
    # Place as high as we can (a high ball sees far); remove a red only when
    # there is nothing to place.
    places = [m for m in legal if not m.startswith("*")]
    if places:
        top = max(m[0] for m in places)
        return random.choice([m for m in places if m[0] == top])
    return random.choice(legal)


def skjuub(view, legal, seat):
    # Get pieces on the board first, then move them; end bonus chains at once.
    if "pass" in legal:
        return "pass"
    places = [m for m in legal if len(m) == 3 and m[2] in "NESW"]
    if places:
        return random.choice(places)
    moves = [m for m in legal if "-" in m or "~" in m]
    return random.choice(moves or legal)


def skyjo(view, legal, seat):
    # Low cards are good. Keep a card lower than one of ours, else reveal.
    me = view["players"][seat]["grid"]
    cells = {}  # position -> value (an int, "?" face down, "x" removed)
    for r, row in enumerate(me):
        for c, v in enumerate(row):
            cells["abcd"[c] + str(r + 1)] = v
    known = {p: v for p, v in cells.items() if isinstance(v, int)}
    hidden = [p for p, v in cells.items() if v == "?"]
    phase = view["phase"]
    if phase == "initial_flips":
        return random.choice(legal)
    if phase == "choose":
        top = view["discard"][-1] if view["discard"] else 99
        worst = max(known.values(), default=-99)
        want = "take" if top <= 2 or (known and top < worst - 4) else "draw"
        return want if want in legal else random.choice(legal)
    held = view["held"]
    if known:
        worst = max(known, key=known.get)
        if known[worst] > held and "swap " + worst in legal:
            return "swap " + worst
    if held <= 4 and hidden and "swap " + hidden[0] in legal:
        return "swap " + hidden[0]
    flips = [m for m in legal if m.startswith("flip ")]
    return random.choice(flips or legal)


def choose(req):
    play = {"sgolte": sgolte, "sploof": sploof, "skjuub": skjuub, "skyjo": skyjo}.get(req["game"])
    legal = req["legal"]
    move = play(req["view"], legal, req["seat"]) if play else None
    return move if move in legal else random.choice(legal)


def main():
    for line in sys.stdin:
        req = json.loads(line)
        if req.get("type") == "hello":
            reply = {"type": "hello", "protocol": 2, "name": NAME, "games": GAMES}
        elif req.get("type") == "move":
            reply = {"move": choose(req)}
        else:
            print("ignoring a message of type %r" % req.get("type"), file=sys.stderr)
            continue
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
