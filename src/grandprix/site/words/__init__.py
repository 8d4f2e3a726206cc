"""The site's sentences: the season's settings and results said in words, in the language spoken.

``common`` holds the words the others share: numbers in words and as a sentence writes them,
places and lists, dates as days of the season, conditions on players, rating lists, tie-break
codes with their modifiers (each code's name and meaning are its rule book's, in
``tiebreaks.TIEBREAKS``) and the link to a rule ID. ``season`` says a player's results and
total, why one player ranks above another on equal points and the race for the places;
``event`` the facts at the top of an event's page.

The rules page is ``rules``, with its parts: the points of real series in ``points``, what
players on equal scores get in ``ties``, ratings and divisions in ``divisions``, the season's
prizes in ``prizes`` and one of the season's results worked through in ``example``.

Each returns text or the page parts of ``site/parts.py``; none shows a key or a value as the
settings file spells it.
"""
