import os
import httpx

pix = os.environ["APP_PIX_URL"]
# The PSP's client certificate (PEM); the CA bundle and the proxy come from the environment (trust_env).
with httpx.Client(cert=(os.environ["APP_CLIENT_CERT"], os.environ["APP_CLIENT_KEY"]), timeout=30) as client:
    auth = (os.environ["APP_CLIENT_ID"], os.environ["APP_CLIENT_SECRET"])
    token = client.post(f"{pix}/oauth/token", data={"grant_type": "client_credentials"}, auth=auth).json()["access_token"]
    cob = {"calendario": {"expiracao": 3600}, "valor": {"original": "123.45"}, "chave": "8d2a6c1e-4b7f-4e3a-9c5d-1f0e2b3a4c5d"}
    res = client.put(f"{pix}/v2/cob/{os.environ['APP_TXID']}", json=cob, headers={"Authorization": f"Bearer {token}"})
    print("cob", res.status_code, res.json().get("status"))
