#!/bin/sh
# caplab report's hostile test: blocks the call (exit 2), its reason the hostile text beside it.
cat >/dev/null
cat ./hostile-reason.txt >&2
exit 2
