import os
import requests

session = requests.Session()  # one Session: the CA bundle is read once, not at every request
charge = {"amount": 49.9, "description": "Pedido 1"}
res = session.post("https://api.pague.dev/v1/pix", json=charge, headers={"X-API-Key": os.environ["APP_API_KEY"]}, timeout=30)
print("v1", res.status_code, res.json().get("id"))
auth = {"client_id": os.environ["APP_CLIENT_ID"], "client_secret": os.environ["APP_CLIENT_SECRET"]}
token = session.post("https://api-gateway.pague.dev/v2/auth", json=auth, timeout=30).json()["access_token"]
res = session.post("https://api-gateway.pague.dev/v2/pix", json=charge, headers={"Authorization": f"Bearer {token}"}, timeout=30)
print("v2", res.status_code, res.json().get("id"))
pix = os.environ["APP_PIX_URL"]
token = session.post(f"{pix}/oauth/token", data={"grant_type": "client_credentials"}, auth=(auth["client_id"], auth["client_secret"]), timeout=30).json()["access_token"]
cob = {"calendario": {"expiracao": 3600}, "valor": {"original": "123.45"}, "chave": "8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d"}
res = session.put(f"{pix}/v2/cob/{os.environ['APP_TXID']}", json=cob, headers={"Authorization": f"Bearer {token}"}, timeout=30)
print("cob", res.status_code, res.json().get("status"))
