"""``grandprix serve``: the season's site served from its folder, page by page on request, and
the workspace that edits the folder. ``app.py`` (the routes, ``create_app``), ``seasons.py`` (each
season read again when its files change), ``security.py`` (CSRF, the Host check, the body limit,
the headers, ``safe_name`` for uploaded names), ``templates/`` (the server's own pages) and,
from its own issue, ``workspace.py`` (the workspace's operations and routes)."""
