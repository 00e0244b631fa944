"""Playwright helpers every UI agent (and the probes and pairwise captures) share: launching the
browser (``browser.py``), waiting for a page to settle (``settle.py``), finding elements
(``locate.py``) and typing into the widgets apps use (``input_modes.py``), evidence
(``evidence.py``) and whether the app can be operated at all (``operability.py``)."""
