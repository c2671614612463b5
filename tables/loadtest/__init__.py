"""Load and soak runs against a running server: clients, their set-up and what they measure.

The management commands (``loadtest``, ``soak``, and the tournaments'
``loadtest_sng`` and ``loadtest_mtt``) only parse options, call in here and
print; the tests drive the same pieces directly.
"""
