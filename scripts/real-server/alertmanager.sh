#!/usr/bin/env bash
# Runs contractgen's conformance suite against a real Prometheus Alertmanager, as a new user would:
# generate a package from Alertmanager's own published OpenAPI document into a folder outside this
# repository, start Alertmanager on loopback with throw-away storage, and run `contractgen test`.
# Findings: docs/real-servers.md. It installs nothing: it says what is missing and how to get it.
#
#   scripts/real-server/alertmanager.sh [work-dir] [-- extra contractgen test options]
#
# Environment: ALERTMANAGER (binary, default: prometheus-alertmanager or alertmanager on PATH),
# ALERTMANAGER_SPEC (default: <work-dir>/openapi.yaml), PORT (default 9093), SEED (default 1).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="${1:-/tmp/alertmanager}"
[ "$#" -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
port="${PORT:-9093}"
spec="${ALERTMANAGER_SPEC:-$work/openapi.yaml}"
cli="$repo/generators/bin/contractgen.js"
# Nothing of Alertmanager (document, generated package, storage) belongs in this repository.
case "$(cd "$work" 2>/dev/null && pwd || realpath -m "$work")/" in
  "$repo"/*) echo "use a work folder outside the repository ($work is inside it)" >&2; exit 3 ;;
esac

bin="${ALERTMANAGER:-}"
if [ -z "$bin" ]; then bin="$(command -v prometheus-alertmanager || command -v alertmanager || true)"; fi
if [ -z "$bin" ] || [ ! -x "$bin" ]; then
  echo "no Alertmanager binary: install it (Debian: apt-get install prometheus-alertmanager) or set ALERTMANAGER=/path/to/alertmanager" >&2
  exit 3
fi
version="$("$bin" --version 2>&1 | head -n 1 | sed -E 's/.*version ([^ ]+).*/\1/')"
if [ ! -f "$spec" ]; then
  echo "no OpenAPI document at $spec: take api/v2/openapi.yaml of the prometheus/alertmanager repository at tag v$version, e.g." >&2
  echo "  curl -fsSL https://raw.githubusercontent.com/prometheus/alertmanager/v$version/api/v2/openapi.yaml -o $spec" >&2
  echo "or set ALERTMANAGER_SPEC=/path/to/openapi.yaml" >&2
  exit 3
fi
if [ ! -f "$cli" ] || [ ! -f "$repo/generators/dist/cli.js" ]; then
  echo "contractgen is not built: run npm ci && npm run build:generators in $repo" >&2
  exit 3
fi

mkdir -p "$work"
storage="$(mktemp -d "$work/storage.XXXXXX")"
config="$work/alertmanager.yml"
# The smallest valid configuration: one receiver that sends nowhere.
cat > "$config" <<'YAML'
route:
  receiver: "null"
receivers:
  - name: "null"
YAML

log="$work/alertmanager.log"
# Loopback only; an empty cluster address turns gossip (and its listener) off.
"$bin" --config.file="$config" --storage.path="$storage" --web.listen-address="127.0.0.1:$port" --cluster.listen-address= >"$log" 2>&1 &
am=$!
cleanup() {
  kill "$am" 2>/dev/null || true
  wait "$am" 2>/dev/null || true
  rm -rf "$storage"
}
trap cleanup EXIT
for _ in $(seq 1 50); do
  if curl -fs "http://127.0.0.1:$port/-/ready" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$am" 2>/dev/null; then echo "Alertmanager exited; its log:" >&2; cat "$log" >&2; exit 4; fi
  sleep 0.2
done
curl -fs "http://127.0.0.1:$port/-/ready" >/dev/null || { echo "Alertmanager did not get ready on 127.0.0.1:$port; log in $log" >&2; exit 4; }
echo "Alertmanager $version on http://127.0.0.1:$port (log: $log)" >&2

# Some data, so the read operations answer with bodies to check rather than empty lists: the suite
# cannot create any itself (it builds no body the document gives no example of). SEED_DATA=0 skips it.
if [ "${SEED_DATA:-1}" != "0" ]; then
  from="$(date -u +%Y-%m-%dT%H:%M:%S.000Z)"
  until="$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%S.000Z)"
  curl -fsS -X POST -H 'content-type: application/json' "http://127.0.0.1:$port/api/v2/alerts" \
    -d '[{"labels":{"alertname":"ContractTest","severity":"none"},"annotations":{"summary":"seeded by alertmanager.sh"},"startsAt":"'"$from"'","endsAt":"'"$until"'"},
         {"labels":{"alertname":"Silenced","severity":"none"},"startsAt":"'"$from"'","endsAt":"'"$until"'"}]' >/dev/null
  curl -fsS -X POST -H 'content-type: application/json' "http://127.0.0.1:$port/api/v2/silences" \
    -d '{"matchers":[{"name":"alertname","value":"Silenced","isRegex":false,"isEqual":true}],"startsAt":"'"$from"'","endsAt":"'"$until"'","createdBy":"alertmanager.sh","comment":"seeded"}' >/dev/null
  echo "seeded 2 alerts and 1 silence" >&2
fi

cd "$work"
node "$cli" generate "$spec" --out "$work/am-pkg" --name alertmanager --quiet
set +e
node "$cli" test --spec "$work/am-pkg" --base-url "http://127.0.0.1:$port" --destructive --seed "${SEED:-1}" "$@"
code=$?
set -e
exit "$code"
