#!/usr/bin/env bash
# Runs contractgen's conformance suite against a real etcd (its v3 JSON gateway: 41 POST operations,
# most of them writes: put, delete, transactions, compaction, leases, users, roles, members, alarms),
# as a new user would: generate a package from etcd's own published Swagger document into a folder
# outside this repository, start a one-member etcd on loopback with a throw-away data folder, and run
# `contractgen test`. Findings: docs/real-servers.md. It installs nothing: it says what is missing.
#
#   scripts/real-server/etcd.sh [work-dir] [-- extra contractgen test options]
#
# Environment: ETCD (binary, default: etcd on PATH), ETCD_SPEC (default: <work-dir>/rpc.swagger.json),
# PORT (client port, default 2379; the peer port is PORT+1), SEED (default 1), SEED_DATA=0 (no key),
# AUTH=0 (auth left disabled), TOKEN_TTL (default 3600), DESTRUCTIVE=0 (no --destructive).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="${1:-/tmp/etcd}"
[ "$#" -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
port="${PORT:-2379}"
peer=$((port + 1))
spec="${ETCD_SPEC:-$work/rpc.swagger.json}"
cli="$repo/generators/bin/contractgen.js"
case "$(cd "$work" 2>/dev/null && pwd || realpath -m "$work")/" in
  "$repo"/*) echo "use a work folder outside the repository ($work is inside it)" >&2; exit 3 ;;
esac

bin="${ETCD:-$(command -v etcd || true)}"
if [ -z "$bin" ] || [ ! -x "$bin" ]; then
  echo "no etcd binary: install it (Debian: apt-get install etcd-server) or set ETCD=/path/to/etcd" >&2
  exit 3
fi
version="$("$bin" --version 2>&1 | sed -nE 's/^etcd Version: ([^ ]+).*/\1/p')"
if [ ! -f "$spec" ]; then
  echo "no Swagger document at $spec: take Documentation/dev-guide/apispec/swagger/rpc.swagger.json of the etcd-io/etcd repository at tag v$version, e.g." >&2
  echo "  curl -fsSL https://raw.githubusercontent.com/etcd-io/etcd/v$version/Documentation/dev-guide/apispec/swagger/rpc.swagger.json -o $spec" >&2
  echo "or set ETCD_SPEC=/path/to/rpc.swagger.json" >&2
  exit 3
fi
if [ ! -f "$cli" ] || [ ! -f "$repo/generators/dist/cli.js" ]; then
  echo "contractgen is not built: run npm ci && npm run build:generators in $repo" >&2
  exit 3
fi

mkdir -p "$work"
# The document as published: its streaming answers refer to `#/x-stream-definitions/…`, which
# contractgen hoists like any schema kept off components (it stopped with an internal error there
# before; docs/real-servers.md).

state="$(mktemp -d "$work/state.XXXXXX")"
log="$work/etcd.log"
# One member; client and peer listeners on loopback only; no v2 API.
"$bin" --name contractgen --data-dir "$state/data" \
  --listen-client-urls "http://127.0.0.1:$port" --advertise-client-urls "http://127.0.0.1:$port" \
  --listen-peer-urls "http://127.0.0.1:$peer" --initial-advertise-peer-urls "http://127.0.0.1:$peer" \
  --initial-cluster "contractgen=http://127.0.0.1:$peer" --initial-cluster-state new \
  --listen-metrics-urls "" --enable-v2=false --auth-token "simple" --auth-token-ttl "${TOKEN_TTL:-3600}" >"$log" 2>&1 &
etcd=$!
cleanup() {
  kill "$etcd" 2>/dev/null || true
  wait "$etcd" 2>/dev/null || true
  rm -rf "$state"
}
trap cleanup EXIT
ready() { curl -fs -X POST "http://127.0.0.1:$port/v3/maintenance/status" -d '{}' >/dev/null 2>&1; }
for _ in $(seq 1 100); do
  if ready; then break; fi
  if ! kill -0 "$etcd" 2>/dev/null; then echo "etcd exited; its log:" >&2; cat "$log" >&2; exit 4; fi
  sleep 0.2
done
ready || { echo "etcd did not answer on 127.0.0.1:$port; log in $log" >&2; exit 4; }
echo "etcd $version on http://127.0.0.1:$port (peer 127.0.0.1:$peer; log: $log)" >&2

# One key, so range reads have something to answer with (keys and values are base64 in this API).
if [ "${SEED_DATA:-1}" != "0" ]; then
  curl -fsS -X POST "http://127.0.0.1:$port/v3/kv/put" -d '{"key":"c2VlZGVk","value":"YnkgZXRjZC5zaA=="}' >/dev/null
  echo "seeded key \"seeded\"" >&2
fi

# The document declares one scheme for every operation (apiKey, header `Authorization`), so the
# server is run as the document describes it: auth enabled, a root user (with the root role that
# `auth enable` requires), and a simple token from /v3/auth/authenticate, which etcd takes as the raw
# `Authorization` header value. The token lives --auth-token-ttl seconds (TOKEN_TTL, default 3600)
# after its last use. AUTH=0 runs with auth disabled (every case then lacks credentials).
auth=()
if [ "${AUTH:-1}" != "0" ]; then
  password="contractgen-root-$$"
  call() { curl -fsS -X POST "http://127.0.0.1:$port/v3/auth/$1" -d "$2"; }
  call user/add "{\"name\":\"root\",\"password\":\"$password\"}" >/dev/null
  call role/add '{"name":"root"}' >/dev/null
  call user/grant '{"user":"root","role":"root"}' >/dev/null
  call enable '{}' >/dev/null
  token="$(call authenticate "{\"name\":\"root\",\"password\":\"$password\"}" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).token??""))')"
  [ -n "$token" ] || { echo "etcd gave no auth token" >&2; exit 4; }
  auth=(--auth "{\"apiKey\":\"$token\"}")
  echo "auth enabled: user root (role root), simple token, TTL ${TOKEN_TTL:-3600}s" >&2
fi

cd "$work"
node "$cli" generate "$spec" --out "$work/etcd-pkg" --name etcd --quiet
destructive=(--destructive)
[ "${DESTRUCTIVE:-1}" = "0" ] && destructive=()
set +e
node "$cli" test --spec "$work/etcd-pkg" --base-url "http://127.0.0.1:$port" ${destructive[@]+"${destructive[@]}"} --seed "${SEED:-1}" ${auth[@]+"${auth[@]}"} "$@"
code=$?
set -e
exit "$code"
