#!/usr/bin/env bash
# Runs contractgen's conformance suite against a real PowerDNS Authoritative server (zones keyed by
# their name, not by an id), as a new user would: generate a package from PowerDNS's own published
# Swagger document into a folder outside this repository, start pdns_server on loopback with a
# throw-away SQLite backend, seed one zone, and run `contractgen test`.
# Findings: docs/real-servers.md. It installs nothing: it says what is missing and how to get it.
#
#   scripts/real-server/pdns.sh [work-dir] [-- extra contractgen test options]
#
# Environment: PDNS_SERVER (binary, default: pdns_server on PATH), PDNS_SPEC (default:
# <work-dir>/authoritative-api-swagger.yaml), PORT (web server/API, default 8081), DNS_PORT (default
# 5300), SEED (default 1), SEED_DATA=0 (no zone seeded), KEY_PROXY=1 (the key added by a proxy instead of --auth).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="${1:-/tmp/pdns}"
[ "$#" -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
port="${PORT:-8081}"
dns_port="${DNS_PORT:-5300}"
spec="${PDNS_SPEC:-$work/authoritative-api-swagger.yaml}"
cli="$repo/generators/bin/contractgen.js"
key="contractgen-test-key"
case "$(cd "$work" 2>/dev/null && pwd || realpath -m "$work")/" in
  "$repo"/*) echo "use a work folder outside the repository ($work is inside it)" >&2; exit 3 ;;
esac

bin="${PDNS_SERVER:-$(command -v pdns_server || true)}"
if [ -z "$bin" ] || [ ! -x "$bin" ]; then
  echo "no pdns_server: install it (Debian: apt-get install pdns-server pdns-backend-sqlite3 sqlite3) or set PDNS_SERVER=/path/to/pdns_server" >&2
  exit 3
fi
schema=/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql
if [ ! -f "$schema" ] || ! command -v sqlite3 >/dev/null; then
  echo "no SQLite backend: apt-get install pdns-backend-sqlite3 sqlite3" >&2
  exit 3
fi
# (pdns_server --version prints its banner and exits 99)
version="$({ "$bin" --version 2>&1 || true; } | sed -nE 's/.*PowerDNS Authoritative Server ([^ ]+).*/\1/p' | head -n 1)"
if [ ! -f "$spec" ]; then
  echo "no Swagger document at $spec: take docs/http-api/swagger/authoritative-api-swagger.yaml of the PowerDNS/pdns repository at tag auth-$version, e.g." >&2
  echo "  curl -fsSL https://raw.githubusercontent.com/PowerDNS/pdns/auth-$version/docs/http-api/swagger/authoritative-api-swagger.yaml -o $spec" >&2
  echo "or set PDNS_SPEC=/path/to/authoritative-api-swagger.yaml" >&2
  exit 3
fi
if [ ! -f "$cli" ] || [ ! -f "$repo/generators/dist/cli.js" ]; then
  echo "contractgen is not built: run npm ci && npm run build:generators in $repo" >&2
  exit 3
fi

mkdir -p "$work"
# The document as published: its responses share the error statuses through YAML merge keys
# (`<<: *commonErrors`), which contractgen reads as merges (it refused them before; docs/real-servers.md).

state="$(mktemp -d "$work/state.XXXXXX")"
sqlite3 "$state/pdns.sqlite3" < "$schema"
# Only this file is read (--config-dir), not /etc/powerdns. DNS and HTTP on loopback only. DNSSEC
# on in the backend: the document's cryptokeys operations need it ("Adding key failed, perhaps
# DNSSEC not enabled in configuration?" without it).
cat > "$state/pdns.conf" <<CONF
launch=gsqlite3
gsqlite3-database=$state/pdns.sqlite3
gsqlite3-dnssec=yes
local-address=127.0.0.1
local-port=$dns_port
api=yes
api-key=$key
webserver=yes
webserver-address=127.0.0.1
webserver-port=$port
webserver-allow-from=127.0.0.1
socket-dir=$state
daemon=no
guardian=no
loglevel=5
CONF

log="$work/pdns.log"
"$bin" --config-dir="$state" >"$log" 2>&1 &
pdns=$!
proxy=""
cleanup() {
  [ -n "$proxy" ] && kill "$proxy" 2>/dev/null || true
  kill "$pdns" 2>/dev/null || true
  wait "$pdns" 2>/dev/null || true
  [ -n "$proxy" ] && wait "$proxy" 2>/dev/null || true
  rm -rf "$state"
}
trap cleanup EXIT
api="http://127.0.0.1:$port/api/v1"
for _ in $(seq 1 50); do
  if curl -fs -H "X-API-Key: $key" "$api/servers" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$pdns" 2>/dev/null; then echo "pdns_server exited; its log:" >&2; cat "$log" >&2; exit 4; fi
  sleep 0.2
done
curl -fs -H "X-API-Key: $key" "$api/servers" >/dev/null || { echo "PowerDNS did not answer on 127.0.0.1:$port; log in $log" >&2; exit 4; }
echo "PowerDNS Authoritative $version: API on http://127.0.0.1:$port, DNS on 127.0.0.1:$dns_port (log: $log)" >&2

# One zone with a record, a TSIG key and a metadata item, so the name-keyed items exist to be
# discovered from their lists (zone ids are names such as `example.org.`).
if [ "${SEED_DATA:-1}" != "0" ]; then
  post() { curl -fsS -X "$1" -H "X-API-Key: $key" -H 'content-type: application/json' "$api/servers/localhost/$2" -d "$3" >/dev/null; }
  post POST zones '{"name":"example.org.","kind":"Native","nameservers":["ns1.example.org."],"rrsets":[{"name":"www.example.org.","type":"A","ttl":300,"changetype":"REPLACE","records":[{"content":"192.0.2.10","disabled":false}]}]}'
  post POST tsigkeys '{"name":"seeded-key","algorithm":"hmac-sha256"}'
  post POST zones/example.org./metadata '{"kind":"X-Seeded","metadata":["by pdns.sh"]}'
  echo "seeded zone example.org. (SOA, NS, www A), TSIG key seeded-key, metadata X-Seeded" >&2
fi

base="http://127.0.0.1:$port"
# The document's APIKeyHeader scheme (`X-API-Key`): contractgen test sends the key with --auth.
# KEY_PROXY=1 (a diagnostic of earlier runs) instead adds it in a loopback proxy, as before contractgen
# had API key schemes.
auth=(--auth "{\"apiKey\": \"$key\"}")
if [ "${KEY_PROXY:-0}" = "1" ]; then
  auth=()
  proxy_port=$((port + 1))
  node -e '
    const http = require("node:http");
    const [target, listen, key] = [Number(process.argv[1]), Number(process.argv[2]), process.argv[3]];
    http.createServer((req, res) => {
      const headers = { ...req.headers };
      if (headers["x-api-key"] === undefined) headers["x-api-key"] = key;
      const up = http.request({ host: "127.0.0.1", port: target, method: req.method, path: req.url, headers }, (r) => {
        res.writeHead(r.statusCode, r.rawHeaders); r.pipe(res);
      });
      up.on("error", (e) => { res.writeHead(502); res.end(String(e)); });
      req.pipe(up);
    }).listen(listen, "127.0.0.1");
  ' "$port" "$proxy_port" "$key" &
  proxy=$!
  for _ in $(seq 1 50); do curl -fs "http://127.0.0.1:$proxy_port/api/v1/servers" >/dev/null 2>&1 && break; sleep 0.1; done
  base="http://127.0.0.1:$proxy_port"
  echo "key-adding proxy on $base" >&2
fi

cd "$work"
node "$cli" generate "$spec" --out "$work/pdns-pkg" --name pdns --quiet
set +e
node "$cli" test --spec "$work/pdns-pkg" --base-url "$base" ${auth[@]+"${auth[@]}"} --destructive --seed "${SEED:-1}" "$@"
code=$?
set -e
exit "$code"
