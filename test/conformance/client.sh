#!/bin/sh
# The conformance suite's client under test: `caplab probe --url` with the pinned Bun.
# The suite (client mode) splits --command on spaces, appends the scenario server's URL
# as the last argument and names the scenario in MCP_CONFORMANCE_SCENARIO.
# Usage: client.sh URL
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
url=${1:?usage: client.sh URL (the conformance suite appends it)}
case ${MCP_CONFORMANCE_SCENARIO:-} in
  tools_call) exec "$root/node_modules/.bin/bun" "$root/src/main.ts" probe --url "$url" --call add_numbers --args '{"a":2,"b":3}' ;;
  initialize) exec "$root/node_modules/.bin/bun" "$root/src/main.ts" probe --url "$url" ;;
  *) echo "client.sh: no probe for scenario '${MCP_CONFORMANCE_SCENARIO:-}' (tools_call, initialize)" >&2; exit 2 ;;
esac
