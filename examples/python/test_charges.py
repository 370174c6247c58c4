"""The app's charge flows against the sandbox: pay, expire, and a magic value."""
import urllib.error

import pytest

from shop import request


def test_the_app_talks_to_the_sandbox_over_https(api):
    assert api.base_url.startswith("https://")


def test_a_paid_charge_sends_a_signed_payment_completed(sandbox, api, receiver):
    charge = api.create_charge(25.90, "Pedido 42")
    assert charge["status"] == "pending"

    sandbox.control("POST", f"/transactions/{charge['id']}/pay", {"payerName": "Ana Souza"})  # what the bank would do

    delivery = receiver.next("payment_completed", charge["id"])
    assert delivery["valid"]
    assert delivery["body"]["data"]["amount"] == 25.90
    assert sandbox.control("POST", "/settle") == {"settled": True}  # every delivery went out
    assert api.get_charge(charge["id"])["status"] == "completed"


def test_the_receiver_refuses_a_wrong_signature(receiver):
    with pytest.raises(urllib.error.HTTPError) as refused:
        request("POST", receiver.url, {"event": "payment_completed"}, {"X-Service-Signature": "sha256=0"}, None)
    assert refused.value.code == 401


def test_a_charge_expires_when_the_clock_passes_its_expiry(sandbox, api):
    charge = api.create_charge(20.00, "Pedido 43", expiresIn=300)
    sandbox.control("POST", "/clock/advance", {"seconds": 301})
    assert api.get_charge(charge["id"])["status"] == "cancelled"


def test_the_magic_cpf_00000000191_pays_the_charge_after_5_seconds(sandbox, api):
    charge = api.create_charge(100.00, "Pedido 44", customer={"name": "Ana Souza", "document": "00000000191"})
    sandbox.control("POST", "/clock/advance", {"seconds": 5})
    paid = api.get_charge(charge["id"])
    assert (paid["status"], paid["counterpartDocument"]) == ("completed", "00000000191")
