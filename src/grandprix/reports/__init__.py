"""Every output of the program as CSV, JSON, text or XLSX, one layout for each kind: one event's
placings (``placings``), the season's standings as CSV, terminal tables and explanations
(``standings``), the standings document and its JSON Schema (``document``), the people of a
season (``people``), the prizes (``prizes``), and the site's downloads (``exports``:
standings.csv, results.csv, season.json, season.schema.json, season.xlsx). The domain gives
records; the file formats' machinery is in ``writers/``.
"""
