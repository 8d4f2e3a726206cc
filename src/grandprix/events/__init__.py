"""The event side: an event.toml and its entries -> sections, fees, byes, TRF exports, and the
federation's registration check (UCC-1 to UCC-5, UCC-11, UCC-13 to UCC-16, ACF-4 to ACF-7,
LUP-E2).
"""
