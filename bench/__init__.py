"""Benchmarks of agenteval-assert (not part of the package or of the test suite).

``python -m bench.generate`` writes large synthetic transcripts, ``python -m bench.run``
measures them; see ``docs/performance.md``.
"""
