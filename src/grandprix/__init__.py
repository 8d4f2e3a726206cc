"""grandprix: run chess Grand Prix series from the results files pairing programs write."""

__version__ = "0.1.0"
