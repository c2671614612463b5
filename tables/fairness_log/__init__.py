"""The public log of hand seals (docs/fairness.md, "The public log").

``append``: finished hands join the log after their own transaction, a batch at
a time under the lock of the one head row, and the new head is signed;
``signing``: the log's Ed25519 key, derived from SECRET_KEY; ``proofs``: the
entries, heads and proofs the API serves, read from the stored perfect
subtrees (engine/merkle.py); ``api``: the public REST endpoints.
"""
