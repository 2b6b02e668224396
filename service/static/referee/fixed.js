// Written by `python -m service.receipts.referee_fixed` from the service's one
// definition of these sets (service/engine, service/receipts); do not edit:
// tests/test_fixed_sets.py writes it again and fails when this file differs.

// DiceMode: how an answer's dice were obtained.
export const SEEDED = "seeded";
export const SUPPLIED = "supplied";
export const SEALED = "sealed";
