"""Prizes: who wins what, in the season (rule set) and in each event (event.toml).

``allocate`` is the pure allocator; ``season`` and ``event`` build its rankings, eligibility and
reductions from standings.
"""
