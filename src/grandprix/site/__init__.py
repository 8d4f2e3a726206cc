"""The season's static website (``grandprix site``): pages, the leaders' chart, the exports."""
