#!/usr/bin/env bash
set -euo pipefail
field() { sed -n "s/.*\"$1\":\"\([^\"]*\)\".*/\1/p"; }
body=$(curl -sS -w '\n%{http_code}' -X POST https://api.pague.dev/v1/pix -H "X-API-Key: $APP_API_KEY" -H 'Content-Type: application/json' -d '{"amount":49.9,"description":"Pedido 1"}')
echo "v1 $(tail -n1 <<<"$body") $(head -n1 <<<"$body" | field id)"
token=$(curl -sS -X POST https://api-gateway.pague.dev/v2/auth -H 'Content-Type: application/json' -d "{\"client_id\":\"$APP_CLIENT_ID\",\"client_secret\":\"$APP_CLIENT_SECRET\"}" | field access_token)
body=$(curl -sS -w '\n%{http_code}' -X POST https://api-gateway.pague.dev/v2/pix -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d '{"amount":49.9,"description":"Pedido 1"}')
echo "v2 $(tail -n1 <<<"$body") $(head -n1 <<<"$body" | field id)"
token=$(curl -sS -X POST "$APP_PIX_URL/oauth/token" -u "$APP_CLIENT_ID:$APP_CLIENT_SECRET" -d grant_type=client_credentials | field access_token)
body=$(curl -sS -w '\n%{http_code}' -X PUT "$APP_PIX_URL/v2/cob/$APP_TXID" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d '{"calendario":{"expiracao":3600},"valor":{"original":"123.45"},"chave":"8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d"}')
echo "cob $(tail -n1 <<<"$body") $(head -n1 <<<"$body" | field status)"
