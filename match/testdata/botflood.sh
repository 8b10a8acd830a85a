#!/usr/bin/env bash
# botflood.sh — issue 23 finding 5's flood, on one `tabula serve` (SQLite):
# ACCOUNTS registered users each start one bots-only game (hard against hard)
# and two games with a hard bot in the first seat and the user in the second,
# who never moves (with the game's default options: Sploof's first=random
# lets the bot begin about half of them). It prints the server's resident
# memory (VmRSS) before the flood, every SAMPLE seconds during it, its peak,
# and how the server answered the creations (201, or the refusal's code).
#
#   match/testdata/botflood.sh [BINARY]     (default: go build ./cmd/tabula)
#   GAME=sploof ACCOUNTS=20 DURATION=180 SAMPLE=5 PORT=18431 EXTRA="--bot-memory 256"
#
# It needs curl and jq, and leaves nothing behind (the database is in a
# temporary directory, the server is stopped by its PID).
set -euo pipefail
GAME=${GAME:-sploof}
ACCOUNTS=${ACCOUNTS:-20}
DURATION=${DURATION:-180}
SAMPLE=${SAMPLE:-5}
PORT=${PORT:-18431}
EXTRA=${EXTRA:-}
dir=$(mktemp -d)
bin=${1:-}
if [ -z "$bin" ]; then
	bin=$dir/tabula
	go build -o "$bin" ./cmd/tabula
fi
url=http://127.0.0.1:$PORT
# shellcheck disable=SC2086
"$bin" serve --addr 127.0.0.1:$PORT --db "$dir/flood.db" --metrics-addr "" --signup-rate 0 $EXTRA >"$dir/serve.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 100); do
	curl -fs "$url/api/catalog" >/dev/null 2>&1 && break
	sleep 0.2
done
rss() { awk '/^VmRSS/ {print int($2/1024)}' /proc/$pid/status; }
echo "game $GAME, $ACCOUNTS accounts, $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "RSS before the flood: $(rss) MiB"
declare -A answers
create() { # token, seats JSON → the HTTP status, or status and code
	local out code
	out=$(curl -s -w '\n%{http_code}' -H "Authorization: Bearer $1" -H 'Content-Type: application/json' \
		-d "{\"game\":\"$GAME\",\"seats\":$2}" "$url/api/games")
	code=$(tail -n1 <<<"$out")
	if [ "$code" != 201 ]; then
		code="$code $(head -n1 <<<"$out" | jq -r '.error.code' 2>/dev/null)"
	fi
	echo "$code"
}
for i in $(seq "$ACCOUNTS"); do
	tok=$(curl -fs -H 'Content-Type: application/json' \
		-d "{\"name\":\"flood$i\",\"password\":\"Quiet-Harbour-$RANDOM-Lantern\"}" "$url/api/users" | jq -r .token)
	for seats in '[{"kind":"bot","level":"hard"},{"kind":"bot","level":"hard"}]' \
		'[{"kind":"bot","level":"hard"},{"kind":"me"}]' '[{"kind":"bot","level":"hard"},{"kind":"me"}]'; do
		a=$(create "$tok" "$seats")
		answers[$a]=$((${answers[$a]:-0} + 1))
	done
done
for a in "${!answers[@]}"; do echo "creations answered $a: ${answers[$a]}"; done
peak=0
for t in $(seq "$SAMPLE" "$SAMPLE" "$DURATION"); do
	sleep "$SAMPLE"
	r=$(rss)
	[ "$r" -gt "$peak" ] && peak=$r
	echo "t=${t}s RSS ${r} MiB"
done
echo "RSS peak during the flood: $peak MiB; load: $(cut -d' ' -f1-3 /proc/loadavg)"
# A person's game is still accepted (a game between two people, no bot).
tok=$(curl -fs -H 'Content-Type: application/json' -d '{"name":"person1","password":"Quiet-Harbour-Person-Lantern"}' "$url/api/users" | jq -r .token)
echo "a people's game during the flood: $(create "$tok" '[{"kind":"me"},{"kind":"open"}]')"
echo "a new bot game during the flood: $(create "$tok" '[{"kind":"me"},{"kind":"bot","level":"hard"}]')"
