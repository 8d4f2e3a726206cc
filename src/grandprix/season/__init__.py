"""A season: the folder read and checked (``config``, ``checks``), who is who (``identity``,
``people``), points and standings (``points``, ``standings``, ``divisions``); what is shown of
them (tables, CSV, explanations, the standings as JSON) is written in ``reports/``.
"""
