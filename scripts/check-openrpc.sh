#!/usr/bin/env bash
# check-openrpc.sh: proto-docs/openrpc.json as a third party consumes it.
#
# 1. scripts/check-openrpc.py validates it against the official OpenRPC meta-schema
#    (vendored in proto-docs/meta-schema/) with Python's jsonschema, installed from PyPI
#    into the virtual environment .build/venv when missing, and checks the specification's
#    rules the meta-schema cannot express (required params first, titled schemas).
# 2. scripts/openrpc-typescript.py generates a TypeScript client from it, and tsc (Debian's
#    node-typescript) compiles that client and a short program using it with --strict.
# Fails loudly when a tool cannot be had: the check never passes unchecked.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build/venv
if ! [ -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import jsonschema, referencing' 2>/dev/null; then
  if [ ! -x "$venv/bin/pip" ]; then
    echo "creating: $venv (python3 -m venv)" >&2
    python3 -m venv "$venv" >&2 || { echo "openrpc: FAILED: python3 -m venv failed (install Debian's python3-venv)" >&2; exit 1; }
  fi
  echo "installing: jsonschema from PyPI into $venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check jsonschema >&2 ||
    { echo "openrpc: FAILED: pip install jsonschema failed (PyPI unreachable?)" >&2; exit 1; }
fi
"$venv/bin/python" scripts/check-openrpc.py proto-docs/openrpc.json

command -v tsc >/dev/null 2>&1 || { echo "openrpc: FAILED: no tsc (install Debian's node-typescript)" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 scripts/openrpc-typescript.py proto-docs/openrpc.json >"$dir/client.ts"
# Calls as an application writes them: typed params in, typed results out.
cat >"$dir/usage.ts" <<'TS'
import { Client, Transport, CallbackParams } from "./client";

export async function run(transport: Transport): Promise<number> {
  const client = new Client(transport);
  await client.hello({ appId: "com.example.app", role: "app" });
  await client.requestAuthorization({ options: ["alert", "sound", "badge"] });
  const scheduled = await client.scheduleLocal({
    identifier: "reminder",
    content: { title: "Hello", body: "From TypeScript", badge: 1 },
    trigger: { type: "timeInterval", timeInterval: 60, repeats: false },
  });
  await client.pushRemote({ payload: { aps: { alert: "hi", "thread-id": "t", "content-available": 1 } } });
  const pending = await client.listPending();
  const first: CallbackParams["present"] | undefined = undefined;
  return pending.requests.length + scheduled.identifier.length + (first === undefined ? 0 : 1);
}
TS
tsc --strict --noEmit --target es2020 --lib es2020 --module commonjs "$dir/client.ts" "$dir/usage.ts"
echo "openrpc: the generated TypeScript client ($(wc -l <"$dir/client.ts") lines) compiles with tsc $(tsc --version | sed 's/Version //') --strict"
