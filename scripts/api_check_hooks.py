"""Schemathesis hooks for scripts/api-check: a refused request changes nothing.

The daemon is the ledger's only writer, and the run sends one request at a
time (--workers 1), so the ledger's length before a request is its length
after the one before. After every answer this check reads the ledger's
length from the SQLite file (read-only, beside the daemon's writer) and
fails if an answer of 400 or more came with a ledger that grew.
"""

import os
import sqlite3

import schemathesis

LEDGER = os.environ["ASAMBLEA_CHECK_LEDGER"]
_last = {"count": None}


def _count():
    connection = sqlite3.connect(f"file:{LEDGER}?mode=ro", uri=True, timeout=30)
    try:
        return connection.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    finally:
        connection.close()


@schemathesis.check
def refused_changes_nothing(ctx, response, case):
    now = _count()
    before = _last["count"]
    _last["count"] = now
    if before is not None and response.status_code >= 400 and now != before:
        raise AssertionError(
            f"una solicitud rechazada ({response.status_code}) cambió el registro: "
            f"{before} → {now} eventos / a refused request changed the ledger"
        )
