"""Swiss pairing, round by round: a tournament's state read from its TRF (the results so far,
the round paired and not yet finished, the byes announced, the forbidden pairs, the
acceleration), the next round paired by FIDE's own engine behind one function
(``engine.pair_next``), each pairing checked against the absolute criteria before anything is
written (``criteria``), results entered board by board and the state written back as TRF.
"""
