"""A model's data credited whole, as CC-BY asks: the licence line, the contributors, and every row's sentence numbers
(or, past CREDIT_ROWS_LISTED rows, where the full list is). The lines of the lesson sheet and of a published model."""

from __future__ import annotations

from transformer.summary import DataRecord

from .i18n import t

CONTRIBUTORS_LISTED = 30  # contributors named with their sentence counts; the rest are counted
CREDIT_ROWS_LISTED = 40  # rows whose sentence numbers a sheet lists; past them, where the full list is


def credit_lines(L: str, data: DataRecord) -> list[str]:
    """The data's credit in plain lines: the licence line; with the credits whole, the contributors and each row's
    sentence numbers and contributors (the first CREDIT_ROWS_LISTED, then how to see them all)."""
    lines = [t("data.credit", L, credit=data.data_credit)] if data.data_credit else []
    credits = data.credits
    if credits is None:
        return lines
    people = credits.by_contributor()
    names = ", ".join(f"{who} ({n:,})" for who, n in people[:CONTRIBUTORS_LISTED])
    more = len(people) - CONTRIBUTORS_LISTED
    lines.append(
        t("data.credits_people", L, n=f"{len(people):,}", names=names)
        + (" " + t("credits.more_people", L, n=f"{more:,}") if more > 0 else "")
    )
    rows = "; ".join(
        f"{line}: " + " & ".join(f"{n} ({who})" for n, who in ((a, b), (c, d)) if n)
        for line, a, b, c, d in credits.table()[:CREDIT_ROWS_LISTED]
    )
    left = len(credits.rows) - CREDIT_ROWS_LISTED
    lines.append(t("credits.rows", L, rows=rows) + (" " + t("credits.more_rows", L, n=f"{left:,}") if left > 0 else ""))
    return lines
