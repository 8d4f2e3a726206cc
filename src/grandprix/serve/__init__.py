"""The coordinator's workspace served on this machine (``grandprix serve``): the season's pages
as the static site shows them, and the changes a coordinator makes to the season folder
(``workspace``), each previewed before it is accepted."""
