"""Rules as data: the season rule-set schema and its presets (``schema``, ``load``,
``presets/*.toml``), the kinds of point term with their values and words (``terms``, the
places' values in ``place_points``), the event side's federation files (``federation``,
``federations/*.toml``), the reference generated from the schema (``reference``), and the rule
books: every rule ID and what it means (``rule-books.md``, read by ``books``).
"""
