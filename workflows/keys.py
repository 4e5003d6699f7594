"""Where the console's signing key comes from: the setting, else a key file in the data dir.

The console and the CLI sign decision credentials with it; the worker verifies them. On one
machine (the default) all three find the same file; in a cluster they share the setting.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from pydantic import SecretStr

KEY_FILE = "console-signing.key"


def signing_keys(data_dir: Path, secret: SecretStr | None = None) -> list[bytes]:
    """The signing key first; a configured secret wins over the local key file."""
    if secret is not None:
        return [secret.get_secret_value().encode()]
    path = Path(data_dir) / KEY_FILE
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            # O_EXCL: two processes starting together never write two different keys.
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32))
    key = path.read_text().strip()
    if len(key) < 32:
        raise OSError(f"the signing key file {path} is damaged; delete it to make a new one")
    return [key.encode()]
