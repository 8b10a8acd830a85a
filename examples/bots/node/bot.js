#!/usr/bin/env node
// A starter bot for Tabula in JavaScript (Node, no dependencies): plays
// Sgolte, Sploof, Skjuub and Skyjo legally with a simple heuristic.
//
//   tabula bot check --engine "exec:node examples/bots/node/bot.js"
//   tabula play skyjo --p1 "exec:node examples/bots/node/bot.js" --p2 random
//
// Tabula writes one JSON object a line on standard input (docs/bots.md); we
// answer each hello and each move request with one line on standard output
// and ignore what we do not know. Logs go to standard error.
"use strict";
const readline = require("readline");

const NAME = "starter-node 1.0";
const GAMES = ["sgolte", "sploof", "skjuub", "skyjo"];

const pick = (ms) => ms[Math.floor(Math.random() * ms.length)];

// best returns the moves with the highest score.
function best(ms, score) {
  let top = -Infinity, out = [];
  for (const m of ms) {
    const s = score(m);
    if (s > top) { top = s; out = [m]; } else if (s === top) out.push(m);
  }
  return out;
}

// The cells next to a Sgolte cell such as "e5" (rows a.. from the bottom,
// numbered from 1 at the left; the middle row is the longest).
function neighbours(cell, size) {
  const r = cell.charCodeAt(0) - 97, k = parseInt(cell.slice(1), 10), mid = size - 1;
  const up = r < mid ? [[r + 1, k], [r + 1, k + 1]] : [[r + 1, k - 1], [r + 1, k]];
  const down = r > mid ? [[r - 1, k], [r - 1, k + 1]] : [[r - 1, k - 1], [r - 1, k]];
  return [[r, k - 1], [r, k + 1], ...up, ...down]
    .filter(([row, num]) => row >= 0 && row <= 2 * mid && num >= 1 && num <= size + Math.min(row, 2 * mid - row))
    .map(([row, num]) => String.fromCharCode(97 + row) + num);
}

// Sgolte: flipping stones splits the opponent's groups, so flip as many as
// we can, and among equals place where we touch the fewest of our own
// stones (measured: this beats the random bot in nearly every game; placing
// next to our own stones or near the middle loses nearly every game).
function sgolte(view, legal) {
  const mine = new Set(view[view.toMove]);
  const score = (m) => {
    if (m === "swap" || m === "pass") return -1000; // never swap: the simplest answer to the pie rule
    const flips = m.includes("(") ? m.split(",").length : 0;
    const own = neighbours(m.split("(")[0], view.size).filter((n) => mine.has(n)).length;
    return flips * 100 - own;
  };
  return pick(best(legal, score));
}

// Sploof: place as high as we can; remove a red only when we must.
function sploof(view, legal) {
  const places = legal.filter((m) => !m.startsWith("*"));
  if (places.length === 0) return pick(legal);
  return pick(best(places, (m) => Number(m[0])));
}

// Skjuub: bring pieces on, then move them; end bonus chains at once.
function skjuub(view, legal) {
  if (legal.includes("pass")) return "pass";
  const places = legal.filter((m) => m.length === 3 && "NESW".includes(m[2]));
  if (places.length > 0) return pick(places);
  const moves = legal.filter((m) => m.includes("-") || m.includes("~"));
  return pick(moves.length > 0 ? moves : legal);
}

// Skyjo: keep low cards. Take a low discard, keep a drawn card lower than
// our worst known one, else reveal a face-down card.
function skyjo(view, legal, seat) {
  const known = {}, hidden = [];
  view.players[seat].grid.forEach((row, r) => row.forEach((v, c) => {
    const pos = "abcd"[c] + (r + 1);
    if (typeof v === "number") known[pos] = v; else if (v === "?") hidden.push(pos);
  }));
  let worstPos = null;
  for (const pos of Object.keys(known).sort()) {
    if (worstPos === null || known[pos] > known[worstPos]) worstPos = pos;
  }
  if (view.phase === "initial_flips") return pick(legal);
  if (view.phase === "choose") {
    const top = view.discard.length ? view.discard[view.discard.length - 1] : 99;
    return top <= 2 || (worstPos !== null && top < known[worstPos] - 4) ? "take" : "draw";
  }
  const held = view.held;
  if (worstPos !== null && known[worstPos] > held && legal.includes("swap " + worstPos)) return "swap " + worstPos;
  if (held <= 4 && hidden.length > 0 && legal.includes("swap " + hidden[0])) return "swap " + hidden[0];
  const flips = legal.filter((m) => m.startsWith("flip "));
  return pick(flips.length > 0 ? flips : legal);
}

const players = { sgolte, sploof, skjuub, skyjo };

function choose(req) {
  const play = players[req.game];
  const move = play ? play(req.view, req.legal, req.seat) : null;
  return req.legal.includes(move) ? move : pick(req.legal);
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  let req;
  try { req = JSON.parse(line); } catch (e) { console.error("unreadable message:", e.message); return; }
  let reply;
  if (req.type === "hello") reply = { type: "hello", protocol: 2, name: NAME, games: GAMES };
  else if (req.type === "move") reply = { move: choose(req) };
  else { console.error(`ignoring a message of type ${JSON.stringify(req.type)}`); return; }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
