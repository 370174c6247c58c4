"""The app under test: its own client of the service's v2 API and its webhook check. Nothing here knows about the
sandbox; in production the same code gets the real base URL."""
import hashlib
import hmac
import json
import ssl
import urllib.error
import urllib.request


class PixApi:
    def __init__(self, base_url: str, client_id: str, client_secret: str, ssl_context: ssl.SSLContext | None = None):
        self.base_url = base_url.rstrip("/")
        self.client_id = client_id
        self.client_secret = client_secret
        self.ssl_context = ssl_context
        self._token: str | None = None

    def create_charge(self, amount: float, description: str, **fields) -> dict:
        return self._call("POST", "/pix", {"amount": amount, "description": description, **fields})

    def get_charge(self, charge_id: str) -> dict:
        return self._call("GET", f"/transactions/{charge_id}")

    def _call(self, method: str, path: str, body: dict | None = None, retry: bool = True) -> dict:
        if self._token is None:
            self._token = self._post_json("/auth", {"client_id": self.client_id, "client_secret": self.client_secret})["access_token"]
        try:
            return request(method, self.base_url + path, body, {"Authorization": f"Bearer {self._token}"}, self.ssl_context)
        except urllib.error.HTTPError as err:
            if err.code != 401 or not retry:  # a token lives 300 s: take a new one once, then give up
                raise
            self._token = None
            return self._call(method, path, body, retry=False)

    def _post_json(self, path: str, body: dict) -> dict:
        return request("POST", self.base_url + path, body, {}, self.ssl_context)


def request(method: str, url: str, body: dict | None, headers: dict, ssl_context: ssl.SSLContext | None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json", **headers})
    with urllib.request.urlopen(req, context=ssl_context, timeout=30) as res:
        text = res.read()
    return json.loads(text) if text else {}


def verify_signature(raw_body: bytes, header: str | None, secret: str) -> bool:
    """X-Service-Signature is sha256=<hex HMAC-SHA256 of the raw body bytes>, keyed with the endpoint's secret."""
    expected = "sha256=" + hmac.new(secret.encode(), raw_body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, header or "")
