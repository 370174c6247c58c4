import base64
import json
import os
import urllib.parse
import urllib.request


def call(method, url, body=None, headers=None, form=False):
    data = urllib.parse.urlencode(body).encode() if form else (json.dumps(body).encode() if body is not None else None)
    kind = "application/x-www-form-urlencoded" if form else "application/json"
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": kind, **(headers or {})})
    with urllib.request.urlopen(req, timeout=30) as res:
        return res.status, json.load(res)


charge = {"amount": 49.9, "description": "Pedido 1"}
status, body = call("POST", "https://api.pague.dev/v1/pix", charge, {"X-API-Key": os.environ["APP_API_KEY"]})
print("v1", status, body.get("id"))
cid, secret = os.environ["APP_CLIENT_ID"], os.environ["APP_CLIENT_SECRET"]
_, auth = call("POST", "https://api-gateway.pague.dev/v2/auth", {"client_id": cid, "client_secret": secret})
status, body = call("POST", "https://api-gateway.pague.dev/v2/pix", charge, {"Authorization": f"Bearer {auth['access_token']}"})
print("v2", status, body.get("id"))
pix = os.environ["APP_PIX_URL"]
basic = base64.b64encode(f"{cid}:{secret}".encode()).decode()
_, auth = call("POST", f"{pix}/oauth/token", {"grant_type": "client_credentials"}, {"Authorization": f"Basic {basic}"}, form=True)
cob = {"calendario": {"expiracao": 3600}, "valor": {"original": "123.45"}, "chave": "8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d"}
status, body = call("PUT", f"{pix}/v2/cob/{os.environ['APP_TXID']}", cob, {"Authorization": f"Bearer {auth['access_token']}"})
print("cob", status, body.get("status"))
