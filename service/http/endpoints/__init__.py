"""The endpoints, and the request and answer schemas they share.

``steps.py`` (one POST per engine step, and its /odds), ``dice_api.py`` (dice notation),
``seeds.py`` (commit and reveal), ``verify.py`` (checking a response or a game log),
``meta.py`` (rulesets as data, health, docs) and ``referee.py`` (the referee's page);
``contract.py`` says what a ruleset gives the service, ``envelope.py``, ``dice_in.py`` and
``ship_reference.py`` are the schemas around and inside every step's request and answer.
"""
