"""A season: the folder read and checked (``config``, ``checks``), who is who (``identity``,
``people``), points and standings (``points``, ``standings``, ``divisions``), and what is shown
of them (``report``: tables, CSV, explanations; ``document``: the standings as JSON).
"""
