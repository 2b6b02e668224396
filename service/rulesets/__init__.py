"""Every ruleset is a folder here. Adding one means adding its folder and one line below."""

REGISTERED = ("salvo_solo", "fleet_action", "dreadnought", "salvo_grid")
