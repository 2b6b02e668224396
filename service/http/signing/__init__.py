"""Signed receipts over HTTP: the keys, signing every resolution, Prefer, the key set.

``receipts.py`` loads the signing and seal keys once per process, signs each answer
(``signed``) and serves the public key set; checking a log is an endpoint
(endpoints/verify.py), and the work without HTTP is service/receipts/.
"""
