"""Readers: one module per file format, each returning records plus every located problem.

``load_section`` picks the reader from the file's name and content.
"""
