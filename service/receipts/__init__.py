"""Verifiable rolls: canonical JSON, signing keys, signed receipts, sealed seeds, log checks.

Nothing here knows HTTP; ``service/http/signing/receipts.py``,
``service/http/endpoints/verify.py`` and ``service/http/endpoints/seeds.py`` are the doors.
docs/verifiable-rolls.md explains what a receipt and a commitment prove.
"""
