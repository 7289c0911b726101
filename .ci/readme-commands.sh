#!/usr/bin/env bash
# Runs the README's own commands that no test runs (the curl walk-through is test/readme.e2e-spec.ts):
# `npm start` on a fresh SQLite file, `npm run admin -- create-token` against the same database
# with the token checked on the running server, and `npm run typeorm -- migration:show`. Each
# command line below is the README's text; test/readme.e2e-spec.ts checks that they match.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
pid=
# npm start runs npm, a shell and node: it gets a process group of its own (setsid), and the
# whole group is stopped, so no server outlives this script and holds the port.
trap '[ -n "$pid" ] && kill -TERM -- -"$pid" 2>/dev/null; rm -rf "$work"' EXIT
export DATABASE_URL="sqlite:$work/readme.sqlite" PORT=3919 HOST=127.0.0.1 LOG_LEVEL=warn

setsid npm start >"$work/start.log" 2>&1 &
pid=$!
for _ in $(seq 1 240); do
  grep -q '^+-*+$' "$work/start.log" 2>/dev/null && [ "$(grep -c '^+-*+$' "$work/start.log")" -ge 2 ] && break
  sleep 0.5
done
first=$(grep -oE '\*:\*\.[0-9a-f]{64}' "$work/start.log" | head -1) ||
  { echo "readme commands: npm start printed no token"; cat "$work/start.log"; exit 1; }

# npm prints its own header lines first; the token is the last line of stdout.
minted=$(npm run admin -- create-token 2>/dev/null | tail -1)
[[ "$minted" =~ ^\*:\*\.[0-9a-f]{64}$ ]] || { echo "readme commands: create-token printed '$minted'"; exit 1; }
[ "$minted" != "$first" ] || { echo "readme commands: create-token repeated the first token"; exit 1; }
for token in "$first" "$minted"; do
  status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: $token" "http://127.0.0.1:$PORT/api/admin/projects")
  [ "$status" = 200 ] || { echo "readme commands: a token was refused ($status)"; exit 1; }
done

kill -TERM -- -"$pid"
wait "$pid" || true
pid=

npm run typeorm -- migration:show | tee "$work/migrations.log"
if grep -q '\[ \]' "$work/migrations.log"; then echo "readme commands: a migration did not run"; exit 1; fi

# The README's "Using MySQL" block, its two lines taken from README.md and run as written but for
# its placeholders: `user:pass` becomes a throwaway account that holds only the rights the README
# names (GRANT ALL on the database), and the database name gets a suffix, since this server is
# the machine's own. The token check and an export (which needs CREATE TEMPORARY TABLES) show
# that those rights are enough. Needs the MariaDB/MySQL server CI uses (127.0.0.1:3306).
readme_line() { grep -m1 -F -- "$1" README.md; }
db=flagkeeper_readme_$$
account=fk_readme_$$
secret=$(node -e "process.stdout.write(require('crypto').randomBytes(18).toString('hex'))")
root_sql() { mysql -h 127.0.0.1 -u root -e "$1"; }
trap '[ -n "$pid" ] && kill -TERM -- -"$pid" 2>/dev/null; root_sql "DROP DATABASE IF EXISTS $db; DROP USER IF EXISTS $account@127.0.0.1" || true; rm -rf "$work"' EXIT
root_sql "CREATE USER $account@127.0.0.1 IDENTIFIED BY '$secret'; GRANT ALL ON $db.* TO $account@127.0.0.1"
create=$(readme_line "mysql -e 'CREATE DATABASE flagkeeper'")
start=$(readme_line 'DATABASE_URL=mysql://user:pass@127.0.0.1:3306/flagkeeper npm start')
[ -n "$create" ] && [ -n "$start" ] || { echo "readme commands: the Using MySQL lines are gone from README.md"; exit 1; }
bash -c "${create//flagkeeper/$db}"
start=${start//user:pass@/$account:$secret@}
unset DATABASE_URL
PORT=3921 setsid bash -c "${start//flagkeeper/$db}" >"$work/mysql-start.log" 2>&1 &
pid=$!
for _ in $(seq 1 240); do
  [ "$(grep -c '^+-*+$' "$work/mysql-start.log" 2>/dev/null)" -ge 2 ] && break
  sleep 0.5
done
mysql_token=$(grep -oE '\*:\*\.[0-9a-f]{64}' "$work/mysql-start.log" | head -1) ||
  { echo "readme commands: npm start on MySQL printed no token"; cat "$work/mysql-start.log"; exit 1; }
status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: $mysql_token" -H 'content-type: application/json' \
  -d '{"environment":"development","project":"default"}' http://127.0.0.1:3921/api/admin/features-batch/export)
[ "$status" = 200 ] || { echo "readme commands: export on MySQL answered $status"; cat "$work/mysql-start.log"; exit 1; }
if grep -qF "$secret" "$work/mysql-start.log"; then echo "readme commands: the database password appeared in the log"; exit 1; fi
kill -TERM -- -"$pid"
wait "$pid" || true
pid=
echo "readme commands: npm start, npm run admin -- create-token, npm run typeorm -- migration:show, the Using MySQL block"
