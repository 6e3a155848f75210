#!/usr/bin/env bash
# Lints the OpenAPI document the service serves (built in-process by scripts/openapi-document.ts) with Redocly CLI
# and redocly.yaml. Nothing leaves the machine: telemetry and the update check are off.
set -euo pipefail
cd "$(dirname "$0")/.."
document=$(mktemp -d)/openapi.json
trap 'rm -rf "$(dirname "$document")"' EXIT
npx tsx scripts/openapi-document.ts "$document"
REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_NOTIFICATIONS=true npx redocly lint --config redocly.yaml "$document"
