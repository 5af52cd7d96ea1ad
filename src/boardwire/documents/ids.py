"""New item ids: the uuids KiCad gives every footprint, track, via, zone, drawing, text,
symbol and wire.

Random (``uuid.uuid4``) unless ``BOARDWIRE_UUID_SEED`` is set in the environment: then
the ids are a reproducible sequence (still version-4 uuids), so two processes that make
the same edits in the same order with the same seed write byte-identical files. Meant
for tests and reproducible builds only; never set it where two sessions could add items
to the same design (their ids would collide). Changing the seed restarts the sequence.
`seeded` does the same for the calls of one thread (design.build: a version rebuilt
with its recorded seed gets the same ids).
"""

from __future__ import annotations

import os
import random
import threading
import uuid
from contextlib import contextmanager

SEED_VARIABLE = "BOARDWIRE_UUID_SEED"

_lock = threading.Lock()
_rng: random.Random | None = None
_seed: str | None = None
_local = threading.local()


@contextmanager
def seeded(seed: str):
    """New ids in this thread come from a sequence seeded with ``seed`` while inside."""
    prev = getattr(_local, "rng", None)
    _local.rng = random.Random(seed)
    try:
        yield
    finally:
        _local.rng = prev


def new_uuid() -> str:
    """A new uuid as KiCad writes it (lower-case, hyphenated)."""
    rng = getattr(_local, "rng", None)
    if rng is not None:
        return str(uuid.UUID(int=rng.getrandbits(128), version=4))
    seed = os.environ.get(SEED_VARIABLE)
    if not seed:
        return str(uuid.uuid4())
    global _rng, _seed
    with _lock:
        if _rng is None or seed != _seed:
            _rng, _seed = random.Random(seed), seed
        return str(uuid.UUID(int=_rng.getrandbits(128), version=4))
