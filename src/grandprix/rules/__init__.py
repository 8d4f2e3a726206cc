"""Rules as data: the season rule-set schema and its presets (``schema``, ``load``,
``presets/*.toml``), the event side's federation files (``federation``, ``federations/*.toml``),
the reference generated from the schema (``reference``), and the rule books: every rule ID and
what it means (``rule-books.md``, read by ``books``).
"""
