"""``grandprix serve``: the season's site served from its folder, page by page on request, and the
workspace that edits the folder. ``app.py`` (the routes, ``create_app``), ``common.py`` (what
every endpoint uses: the season of a request, the server's pages, previewed changes waiting),
``forms.py`` (the workspace's pages and forms), ``review.py`` (a coordinator's approvals and
audit trail), ``seasons.py`` (each season read again when its files change), ``changes.py`` and
``workspace.py`` (a change of the folder's files, previewed then accepted), ``new_season.py`` (a
new season folder made whole), ``journal.py`` (a change written whole or finished after a
crash), ``security.py`` (CSRF, the Host check, the body limit, the headers, ``safe_name`` for
uploaded names), ``accounts.py``, ``store.py``, ``database.py`` and ``tables.py`` (users,
sessions, uploads waiting and the audit trail in the server's database), ``rule_fields.py`` (the
rule set as form fields) and ``templates/`` (the server's own pages)."""
