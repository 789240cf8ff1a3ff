#!/bin/bash
# Alternates two builds' `promptd import LIB --activate --quiet` into a copy of an
# empty SQLite database migrated by that build (as bench/import-10k.ts times it: migration not
# included), then an unchanged re-import into the same file. Prints wall, CPU
# (user + sys of all threads, /usr/bin/time), the main thread's CPU (bench/lib/main-thread-cpu.cjs)
# and the load average per run, A and B alternated (A B, then B A, …).
#
#   bench/import-pairs.sh LIBRARY PAIRS A_ROOT B_ROOT     # roots hold bin/ and a built dist/
#   PG_ADMIN=postgres://postgres@127.0.0.1:5432 bench/import-pairs.sh …   # PostgreSQL instead
#   NICE=-10 bench/import-pairs.sh …   # (root) both builds ahead of the machine's other work: nearer a quiet machine
set -u
LIB=$1; PAIRS=${2:-3}; A=$3; B=$4
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if [ -z "${PG_ADMIN:-}" ]; then
  # One template per build, migrated by that build: a schema change (an index) must not reach the other.
  node "$A/bin/promptd.js" --database-url "file:$TMP/template-A.db" migrate >/dev/null || exit 1
  node "$B/bin/promptd.js" --database-url "file:$TMP/template-B.db" migrate >/dev/null || exit 1
fi
HERE=$(cd "$(dirname "$0")" && pwd)
run() { # label root url
  ${NICE:+nice -n "$NICE"} /usr/bin/time -o "$TMP/t" -f "%e %U %S" node --require "$HERE/lib/main-thread-cpu.cjs" "$2/bin/promptd.js" --database-url "$3" import "$LIB" --activate --quiet >"$TMP/out" 2>&1 || { echo "$1 FAILED"; cat "$TMP/out"; return; }
  read -r wall user sys < "$TMP/t"
  echo "$1 $(date -u +%H:%M:%S) wall=$wall cpu=$(echo "$user + $sys" | bc) $(grep -o 'main-cpu=[0-9.]*' "$TMP/out") load=$(cut -d' ' -f1 /proc/loadavg)"
}
for r in $(seq 1 "$PAIRS"); do
  order="A B"; [ $((r % 2)) = 0 ] && order="B A"
  for who in $order; do
    ROOT=$A; [ $who = B ] && ROOT=$B
    if [ -z "${PG_ADMIN:-}" ]; then
      rm -f "$TMP/db.db"*; cp "$TMP/template-$who.db" "$TMP/db.db"; url="file:$TMP/db.db"
    else
      db=promptd_pairs_${who,,}
      psql "$PG_ADMIN/postgres" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
      url="$PG_ADMIN/$db"
      node "$ROOT/bin/promptd.js" --database-url "$url" migrate >/dev/null
    fi
    run "$who new" "$ROOT" "$url"
    run "$who reimport" "$ROOT" "$url"
  done
done
if [ -n "${PG_ADMIN:-}" ]; then
  for who in a b; do psql "$PG_ADMIN/postgres" -qc "DROP DATABASE IF EXISTS promptd_pairs_$who WITH (FORCE)" >/dev/null; done
fi
