"""Every ruleset is a folder here. Adding one means adding its folder and one line below
(docs/rulesets.md says what goes where)."""

REGISTERED = ("salvo_solo", "fleet_action", "dreadnought", "salvo_grid")
