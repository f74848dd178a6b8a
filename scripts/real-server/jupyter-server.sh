#!/usr/bin/env bash
# Runs contractgen's conformance suite against a real Jupyter Server started empty (an empty root
# folder: no files, no kernels, no sessions, no terminals), as a new user would: generate a package
# from the server's own Swagger document (jupyter_server/services/api/api.yaml, which the package
# ships) into a folder outside this repository, start the server on loopback with throw-away state,
# and run `contractgen test`. Nothing is seeded: every object the suite touches it must make itself.
# Contents are keyed by file path (`/api/contents/{path}`), sessions, kernels and terminals by ids the
# server gives. Findings: docs/real-servers.md. It installs nothing: it says what is missing.
#
#   scripts/real-server/jupyter-server.sh [work-dir] [-- extra contractgen test options]
#
# Environment: JUPYTER_PYTHON (default /usr/bin/python3, the interpreter Debian's
# python3-jupyter-server is installed for), JUPYTER_SPEC (default: <work-dir>/api.yaml, else the
# api.yaml the installed package ships), PORT (default 8888), SEED (default 1).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="${1:-/tmp/jupyter-server}"
[ "$#" -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
port="${PORT:-8888}"
py="${JUPYTER_PYTHON:-/usr/bin/python3}"
cli="$repo/generators/bin/contractgen.js"
case "$(cd "$work" 2>/dev/null && pwd || realpath -m "$work")/" in
  "$repo"/*) echo "use a work folder outside the repository ($work is inside it)" >&2; exit 3 ;;
esac

if ! "$py" -c 'import jupyter_server, ipykernel' 2>/dev/null; then
  echo "no Jupyter Server (with ipykernel) for $py: install it (Debian: apt-get install python3-jupyter-server python3-ipykernel) or set JUPYTER_PYTHON" >&2
  exit 3
fi
version="$("$py" -c 'import jupyter_server; print(jupyter_server.__version__)')"
spec="${JUPYTER_SPEC:-$work/api.yaml}"
if [ ! -f "$spec" ]; then
  shipped="$("$py" -c 'import os, jupyter_server; print(os.path.join(os.path.dirname(jupyter_server.__file__), "services/api/api.yaml"))')"
  if [ -f "$shipped" ]; then
    spec="$shipped"
  else
    echo "no Swagger document at $spec: take jupyter_server/services/api/api.yaml of the jupyter-server/jupyter_server repository at tag v$version, or set JUPYTER_SPEC" >&2
    exit 3
  fi
fi
if [ ! -f "$cli" ] || [ ! -f "$repo/generators/dist/cli.js" ]; then
  echo "contractgen is not built: run npm ci && npm run build:generators in $repo" >&2
  exit 3
fi

mkdir -p "$work"
state="$(mktemp -d "$work/state.XXXXXX")"
mkdir -p "$state/root" "$state/config" "$state/data" "$state/runtime"
log="$work/jupyter-server.log"
root_flag=()
# Jupyter refuses to run as root unless told to (this sandbox's user is root).
[ "$(id -u)" = 0 ] && root_flag=(--allow-root)
# The document declares no security, so the server is run without a token or password; without a
# token, tornado's XSRF check would refuse every POST/PUT/PATCH/DELETE that carries no _xsrf cookie,
# so it is turned off too. Config, data and runtime folders are throw-away (no ~/.jupyter is read).
# Its own process group (setsid), so that the kernels and terminals the suite starts stop with it.
JUPYTER_CONFIG_DIR="$state/config" JUPYTER_DATA_DIR="$state/data" JUPYTER_RUNTIME_DIR="$state/runtime" \
  JUPYTER_NO_CONFIG=1 \
  setsid "$py" -m jupyter_server --ServerApp.ip=127.0.0.1 --ServerApp.port="$port" --ServerApp.port_retries=0 \
  --ServerApp.open_browser=False --ServerApp.token= --ServerApp.password= \
  --ServerApp.disable_check_xsrf=True --ServerApp.root_dir="$state/root" "${root_flag[@]}" >"$log" 2>&1 &
server=$!
cleanup() {
  # Jupyter Server 1.23.3 does not always stop on SIGTERM: when a kernel the suite started has gone,
  # its shutdown_all raises "Kernel does not exist" and the process stays up, with its terminals.
  # So: SIGTERM to the group, a bounded wait, then SIGKILL to the group.
  kill -TERM -- "-$server" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$server" 2>/dev/null || break; sleep 0.2; done
  kill -KILL -- "-$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$state"
}
trap cleanup EXIT
for _ in $(seq 1 100); do
  if curl -fs "http://127.0.0.1:$port/api/status" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$server" 2>/dev/null; then echo "Jupyter Server exited; its log:" >&2; cat "$log" >&2; exit 4; fi
  sleep 0.2
done
curl -fs "http://127.0.0.1:$port/api/status" >/dev/null || { echo "Jupyter Server did not answer on 127.0.0.1:$port; log in $log" >&2; exit 4; }
echo "Jupyter Server $version on http://127.0.0.1:$port, root folder $state/root (empty; log: $log)" >&2

cd "$work"
node "$cli" generate "$spec" --out "$work/jupyter-pkg" --name jupyter-server --quiet
set +e
node "$cli" test --spec "$work/jupyter-pkg" --base-url "http://127.0.0.1:$port" --destructive --seed "${SEED:-1}" "$@"
code=$?
set -e
exit "$code"
