import os
import httpx

charge = {"amount": 49.9, "description": "Pedido 1"}
with httpx.Client(timeout=30) as client:
    res = client.post("https://api.pague.dev/v1/pix", json=charge, headers={"X-API-Key": os.environ["APP_API_KEY"]})
    print("v1", res.status_code, res.json().get("id"))
    auth = {"client_id": os.environ["APP_CLIENT_ID"], "client_secret": os.environ["APP_CLIENT_SECRET"]}
    token = client.post("https://api-gateway.pague.dev/v2/auth", json=auth).json()["access_token"]
    res = client.post("https://api-gateway.pague.dev/v2/pix", json=charge, headers={"Authorization": f"Bearer {token}"})
    print("v2", res.status_code, res.json().get("id"))
    pix = os.environ["APP_PIX_URL"]
    token = client.post(f"{pix}/oauth/token", data={"grant_type": "client_credentials"}, auth=(auth["client_id"], auth["client_secret"])).json()["access_token"]
    cob = {"calendario": {"expiracao": 3600}, "valor": {"original": "123.45"}, "chave": "8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d"}
    res = client.put(f"{pix}/v2/cob/{os.environ['APP_TXID']}", json=cob, headers={"Authorization": f"Bearer {token}"})
    print("cob", res.status_code, res.json().get("status"))
