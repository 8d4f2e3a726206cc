"""Rating lists: FIDE and national lists imported into an SQLite store, looked up on a date.

``formats`` reads the files (FIDE TXT and XML, zipped or not, CSV); ``store`` keeps the lists,
each stamped with its date and kind, and answers "the rating of P on the list in force on D".
"""
