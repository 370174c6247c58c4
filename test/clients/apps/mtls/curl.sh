#!/usr/bin/env bash
# The PSP's client certificate from the app's configuration: APP_CLIENT_CERT and APP_CLIENT_KEY (PEM files).
set -euo pipefail
field() { sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p"; }
cert=()
if [ -n "${APP_CLIENT_CERT:-}" ]; then cert=(--cert "$APP_CLIENT_CERT" --key "$APP_CLIENT_KEY"); fi
token=$(curl -sS "${cert[@]}" -X POST "$APP_PIX_URL/oauth/token" -u "$APP_CLIENT_ID:$APP_CLIENT_SECRET" -d grant_type=client_credentials | field access_token)
body=$(curl -sS "${cert[@]}" -w '\n%{http_code}' -X PUT "$APP_PIX_URL/v2/cob/$APP_TXID" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d '{"calendario":{"expiracao":3600},"valor":{"original":"123.45"},"chave":"8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d"}')
status=$(tail -n1 <<<"$body")
echo "cob $status $(head -n1 <<<"$body" | field status)"
if [ "$status" -ge 300 ]; then head -n1 <<<"$body" >&2; exit 1; fi
