"""Rules as data: the season rule-set schema and its presets (``schema``, ``load``,
``presets/*.toml``), the event side's federation files (``federation``, ``federations/*.toml``),
and the reference generated from the schema (``reference``).
"""
