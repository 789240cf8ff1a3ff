#!/bin/bash
# Alternates two builds of promptd on the same 10,000-file library: per round and build,
# `promptd import --activate` into an empty SQLite database, then again (all unchanged),
# and the same on a fresh PostgreSQL database when PG_ADMIN is set. Prints wall and CPU
# (user + sys) seconds and the load average; on a shared machine compare CPU times.
#
#   npx tsx bench/import-10k.ts --keep        # prints the library path
#   bench/import-ab.sh LIBRARY ROUNDS A_BIN B_BIN   # e.g. /work/main/bin/promptd.js bin/promptd.js
#   PG_ADMIN=postgres://postgres@127.0.0.1:5432 bench/import-ab.sh …
set -u
LIB=$1; ROUNDS=${2:-3}; A=$3; B=$4
TMP=$(mktemp -d)
run() { # label bin url
  /usr/bin/time -o "$TMP/t" -f "%e %U %S" node "$2" --database-url "$3" import "$LIB" --activate --quiet >"$TMP/out" 2>&1 || { echo "$1 FAILED"; cat "$TMP/out"; return; }
  read -r wall user sys < "$TMP/t"
  echo "$1 wall=$wall cpu=$(echo "$user + $sys" | bc) load=$(cut -d' ' -f1 /proc/loadavg)"
}
for r in $(seq 1 "$ROUNDS"); do
  for who in A B; do
    BIN=$A; [ $who = B ] && BIN=$B
    rm -f "$TMP/$who.db"*
    run "sqlite $who new" "$BIN" "file:$TMP/$who.db"
    run "sqlite $who reimport" "$BIN" "file:$TMP/$who.db"
    if [ -n "${PG_ADMIN:-}" ]; then
      db=promptd_ab_${who,,}
      psql "$PG_ADMIN/postgres" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
      run "pg $who new" "$BIN" "$PG_ADMIN/$db"
      run "pg $who reimport" "$BIN" "$PG_ADMIN/$db"
      psql "$PG_ADMIN/postgres" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null
    fi
  done
done
rm -rf "$TMP"
