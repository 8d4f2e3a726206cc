"""Writers: sections and standings turned back into files (TRF for pairing programs)."""
