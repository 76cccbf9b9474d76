#!/usr/bin/env bash
# A POS scripted with curl, as in the README: plain curl, default options.
# usage: bash curl.sh BASE_URL TOKEN ORDER_ID
# Prints "step status body" lines.
set -euo pipefail
base=$1 token=$2 id=$3
h=(-H "x-integration-token: $token" -H 'x-location-id: loc-1' -H 'x-device-ids: kds-1' -H 'content-type: application/json')

call() {
	local step=$1
	shift
	local out
	out=$(curl -sS -w '\n%{http_code}' "$@")
	printf '%s %s %s\n' "$step" "${out##*$'\n'}" "${out%$'\n'*}"
}

call health "$base/health"
time=$(date -u +%Y-%m-%dT%H:%M:%SZ)
echo "time - $time"
call create -X POST "$base/integrators/kds-orders/" "${h[@]}" \
	-d "{\"id\":\"$id\",\"name\":\"curl\",\"time\":\"$time\",\"mode\":\"For Here\",\"items\":[{\"lineId\":\"1\",\"name\":\"Wings\",\"qty\":6,\"mods\":[]}]}"
# Over the limit, from a file, as `--data-binary @file` sends it (curl asks Expect: 100-continue).
big=$(mktemp)
trap 'rm -f "$big"' EXIT
head -c $((8 * 1024 * 1024)) /dev/zero | tr '\0' ' ' >"$big"
call too-large -X POST "$base/integrators/kds-orders" "${h[@]}" --data-binary "@$big"
call active "$base/integrators/kds-orders/active/" "${h[@]}"
