"""pytest recipe: one pix-sandbox process for the session, over HTTPS (--https --port 0; address and CA from its
--ready-json line), a tenant of our own, and a webhook receiver of our own.
Run: /usr/bin/python3 -m pytest (PIX_SANDBOX_CLI: the sandbox's cli.js; the CA is kept in PIX_SANDBOX_HOME)."""
import http.server
import json
import os
import queue
import secrets
import ssl
import subprocess
import threading
from pathlib import Path

import pytest

from shop import PixApi, request, verify_signature

CLI = os.environ.get("PIX_SANDBOX_CLI", str(Path(__file__).resolve().parents[2] / "dist" / "cli.js"))
ARGS = ["--port", "0", "--ready-json", "--https"]


class Sandbox:
    def __init__(self):
        self.process = subprocess.Popen(["node", CLI, *ARGS], stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()  # the ready line: the process is listening once it is printed
        if not line:
            raise RuntimeError(f"pix-sandbox exited ({self.process.wait()}) before its ready line")
        self.ready = json.loads(line)
        # The ready line names the CA that signed the sandbox's certificate: trust it, and only for the sandbox.
        self.ssl_context = ssl.create_default_context(cafile=self.ready["ca"])

    def control(self, method: str, path: str, body: dict | None = None) -> dict:
        return request(method, self.ready["controlUrl"] + path, body, {}, self.ssl_context)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


class Receiver(http.server.ThreadingHTTPServer):
    """Our webhook endpoint: checks each delivery's signature over the raw bytes, answers 200 or 401."""

    def __init__(self):
        super().__init__(("127.0.0.1", 0), ReceiverHandler)
        self.secret = "whsec_" + secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{self.server_address[1]}/webhooks"
        self.deliveries = queue.Queue()

    def next(self, event: str, transaction_id: str, timeout: float = 10) -> dict:
        while True:
            delivery = self.deliveries.get(timeout=timeout)  # queue.Empty when nothing comes
            if delivery["body"]["event"] == event and delivery["body"]["data"]["transactionId"] == transaction_id:
                return delivery


class ReceiverHandler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        raw = self.rfile.read(int(self.headers["Content-Length"]))  # verify these bytes, before parsing
        valid = verify_signature(raw, self.headers["X-Service-Signature"], self.server.secret)
        self.send_response(200 if valid else 401)
        self.end_headers()
        if valid:
            self.server.deliveries.put({"valid": valid, "body": json.loads(raw)})

    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def sandbox():
    sb = Sandbox()
    yield sb
    sb.stop()


@pytest.fixture(scope="session")
def receiver():
    rc = Receiver()
    threading.Thread(target=rc.serve_forever, daemon=True).start()
    yield rc
    rc.shutdown()


@pytest.fixture(scope="session")
def api(sandbox, receiver):
    """The app's client, with the credentials of a tenant made for this session."""
    tenant = sandbox.control("POST", "/accounts", {"name": "pytest recipe", "webhooks": [{"url": receiver.url, "secret": receiver.secret}]})
    cred = tenant["credentials"][0]
    return PixApi(sandbox.ready["v2Url"], cred["clientId"], cred["clientSecret"], sandbox.ssl_context)
