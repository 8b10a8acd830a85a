#!/usr/bin/env python3
"""Fits the result of Skjuub games on the two sides' differences in the
features skjuub-draw-features.patch writes with ZZ_ALL=1 (rows "A"), by
logistic regression (full-batch gradient descent; the standard library only),
per range of plies, and compares its log loss on held-out positions with the
search's heuristic (0.95·tanh((0.6·mobile + 0.04·moves)/3)). docs/ai.md, "What
decides Skjuub's draws". Usage:

  git apply docs/measurements/skjuub-draw-features.patch
  ZZ_ALL=1 ZZ_LOGS="$(ls $PWD/docs/measurements/skjuub-selfplay*.log)" ZZ_OUT=/tmp/sp.csv \\
    go test ./games/skjuub -run ZZFeatures -count=1
  python3 docs/measurements/skjuub-fit-features.py /tmp/sp.csv
"""
import csv
import math
import random
import sys

NAMES = ['mobile', 'moves', 'stuck', 'inactive', 'pool', 'bothaxes', 'tomove']


def features(me, opp, to_move):
    mob, moves, act, inact, pool, ns, ew = me
    omob, omoves, oact, oinact, opool, ons, oew = opp
    return [mob - omob, moves - omoves, (act - mob) - (oact - omob), inact - oinact, pool - opool,
            min(ns, ew) - min(ons, oew), 1.0 if to_move else -1.0]


def load(path):
    rows = []
    for r in csv.reader(open(path)):
        if r[0] != 'A':
            continue
        res, seat, ply, mover = r[3], int(r[4]), int(r[5]), int(r[6])
        b, q = list(map(int, r[7:14])), list(map(int, r[14:21]))
        rows.append((features(b, q, mover == seat), {'W': 1.0, 'L': 0.0, 'D': 0.5}[res], ply))
    return rows


def fit(cols, data, iters=150, lr=0.5):
    w = [0.0] * len(cols)
    for _ in range(iters):
        g = [0.0] * len(cols)
        for x, y, _ in data:
            p = 1 / (1 + math.exp(-sum(w[i] * x[c] for i, c in enumerate(cols))))
            for i, c in enumerate(cols):
                g[i] += (p - y) * x[c]
        for i, c in enumerate(cols):
            w[i] -= lr * g[i] / len(data) * (0.2 if c == 1 else 1)  # moves vary more
    return w


def logloss(prob, data):
    s = 0.0
    for x, y, _ in data:
        p = min(max(prob(x), 1e-9), 1 - 1e-9)
        s -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return s / len(data)


def main():
    rows = load(sys.argv[1])
    random.seed(1)
    random.shuffle(rows)
    cut = int(len(rows) * 0.8)
    train, test = rows[:cut], rows[cut:]
    print(len(rows), 'positions')
    for lo, hi in [(0, 30), (30, 80), (80, 400)]:
        tr = [r for r in train if lo <= r[2] < hi]
        te = [r for r in test if lo <= r[2] < hi]
        for cols in [[0, 1], list(range(len(NAMES)))]:
            w = fit(cols, tr)
            prob = lambda x, w=w, cols=cols: 1 / (1 + math.exp(-sum(w[i] * x[c] for i, c in enumerate(cols))))
            print(f'plies {lo}-{hi}: {len(tr)} positions', dict(zip([NAMES[c] for c in cols], [round(v, 3) for v in w])),
                  'held-out log loss', round(logloss(prob, te), 4))
        hand = lambda x: (0.95 * math.tanh((0.6 * x[0] + 0.04 * x[1]) / 3) + 1) / 2
        print(f'plies {lo}-{hi}: the heuristic, held-out log loss', round(logloss(hand, te), 4))


if __name__ == '__main__':
    main()
