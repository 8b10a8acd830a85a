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
    # Flipping stones splits the opponent's groups: flip as many as we can.
    def flips(m):
        return m.count(",") + 1 if "(" in m else 0
    most = max(flips(m) for m in legal)
    if most > 0:
        return random.choice([m for m in legal if flips(m) == most])
    if "swap" in legal:
        # The pie rule: take over the first stone when it sits near the middle.
        stone = (view["black"] + view["white"])[0]
        if centre_distance(stone, view["size"]) <= 2:
            return "swap"
    cells = [m for m in legal if m not in ("swap", "pass")]
    if not cells:
        return legal[0]
    best = min(centre_distance(m, view["size"]) for m in cells)
    return random.choice([m for m in cells if centre_distance(m, view["size"]) == best])


def centre_distance(cell, size):
    """How far a Sgolte cell such as "e5" is from the middle of the board."""
    row = ord(cell[0]) - ord("a")
    number = int(cell[1:].split("(")[0])
    length = size + min(row, 2 * size - 2 - row)
    return abs(row - (size - 1)) + abs(number - (length + 1) / 2)


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
