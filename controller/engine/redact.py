"""Secrets never reach the logs: a structlog processor that blanks secret-looking keys.

Any key whose name contains ``token``, ``secret``, ``password``, ``passwd``,
``api_key``, ``authorization``, ``credential``, ``cookie`` or ``private_key``
(any case, ``-`` or ``_``) has its value replaced, at any depth of nested
dicts and lists. Values are judged by their key, so a token passed under an
honest name such as ``console_token`` is caught too.

>>> redact({"user": "pit", "console_token": "abc", "nested": [{"Password": 1}]})
{'user': 'pit', 'console_token': '[redacted]', 'nested': [{'Password': '[redacted]'}]}
"""

from __future__ import annotations

import functools
import re
from collections.abc import MutableMapping
from typing import Any

SECRET_KEY = re.compile(r"token|secret|passw(or)?d|api[-_]?key|authori[sz]ation|credential|cookie|private[-_]?key", re.IGNORECASE)
REDACTED = "[redacted]"


@functools.lru_cache(maxsize=4096)
def is_secret(key: str) -> bool:
    return SECRET_KEY.search(key) is not None


def redact(value: Any) -> Any:
    """A copy of ``value`` with every secret-named key's value replaced by ``[redacted]``."""
    if isinstance(value, dict):
        return {k: REDACTED if isinstance(k, str) and is_secret(k) else _inner(v) for k, v in value.items()}
    return _inner(value)


def _inner(value: Any) -> Any:
    if isinstance(value, dict):
        return redact(value)
    if isinstance(value, (list, tuple)):
        return [_inner(v) for v in value]
    return value


def redact_secrets(logger: Any, method_name: str, event_dict: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """structlog processor: put it before the renderer of every output."""
    return redact(dict(event_dict))  # type: ignore[no-any-return]
