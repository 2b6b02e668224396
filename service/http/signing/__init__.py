"""Signed receipts over HTTP: the keys, signing every resolution, Prefer, the key set.

``receipts.py`` loads the signing and seal keys once per process, signs each answer
(``signed``), serves the public key set and checks a game log; the work without HTTP is
service/receipts/.
"""
