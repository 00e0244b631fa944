"""The browser-use UI agent: a model drives the browser through the browser-use library
(``agent.py``), with Asuka's tools (``tools.py``), prompt (``prompt.py``), Chromium settings
(``chromium.py``), the verdicts it reports (``verdict.py``) and what counts as the harness's
failure rather than the app's (``errors.py``)."""
