#!/usr/bin/env bash
# Runs what the Dockerfile's runtime stage runs, without a Docker engine: the built app with
# production dependencies only (`npm prune --omit=dev`), started as the image's CMD, probed with
# the image's HEALTHCHECK command, then stopped with SIGTERM as `docker stop` does.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
cp -r package.json package-lock.json dist node_modules "$work/"
(cd "$work" && npm prune --omit=dev --no-audit --no-fund >/dev/null)

port=3917
token='*:*.container-smoke-token-0123456789'
(cd "$work" && NODE_ENV=production MALLOC_MMAP_THRESHOLD_=131072 PORT=$port \
  DATABASE_URL="sqlite:$work/data/db.sqlite" INIT_ADMIN_API_TOKENS="$token" LOG_LEVEL=warn exec node --max-semi-space-size=8 dist/src/main.js >"$work/out.log" 2>&1) &
pid=$!
healthcheck="fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
for _ in $(seq 1 60); do
  PORT=$port node -e "$healthcheck" && break
  sleep 0.5
done
PORT=$port node -e "$healthcheck" || { echo "container smoke: /health never answered"; cat "$work/out.log"; exit 1; }
status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: $token" "http://127.0.0.1:$port/api/admin/environments")
[ "$status" = 200 ] || { echo "container smoke: token rejected ($status)"; exit 1; }
docs=$(curl -s -o /dev/null -w "%{http_code}" "http://127.0.0.1:$port/docs")
[ "$docs" = 200 ] || { echo "container smoke: /docs answered $docs"; exit 1; }
kill -TERM "$pid"
wait "$pid" && code=0 || code=$?
pid=
# Nest closes the app (in-flight requests finish, the pool closes), then re-raises the signal.
[ "$code" = 0 ] || [ "$code" = 143 ] || { echo "container smoke: exit code $code after SIGTERM"; cat "$work/out.log"; exit 1; }
if grep -q "$token" "$work/out.log"; then echo "container smoke: the token appeared in the log"; exit 1; fi
echo "container smoke: production dependencies only, healthy, authenticated, stopped cleanly on SIGTERM"
