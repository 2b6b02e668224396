"""Every ruleset is a folder here. Adding one means adding its folder and one line below
(docs/rulesets.md says what goes where). ``create_app`` serves them all
(``api.registered()``) unless its ``RULESETS`` setting names others."""

REGISTERED = ("salvo_solo", "fleet_action", "dreadnought", "salvo_grid")
