"""What counts as a secret by its name: such variables never reach untrusted code (the deploy
and agent sandboxes drop them) and such options are never recorded as given (provenance)."""

from __future__ import annotations

import re

SECRET_NAME = re.compile(
    r"API_?KEY|TOKEN|SECRET|PASSW|CREDENTIAL|PRIVATE|AUTH|COOKIE|SESSION|ACCESS_?KEY", re.I
)


def is_secret_name(name: str) -> bool:
    return bool(SECRET_NAME.search(name))
