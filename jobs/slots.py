"""How many trainings one app server runs at once: the PLAYGROUND_TRAINING_SLOTS setting, checked.

Standard library only: jobs.queue reads the setting when the server makes its job queue, and deploy/classroom.py
checks the same setting before it starts any app process.
"""

from __future__ import annotations

ENV = "PLAYGROUND_TRAINING_SLOTS"
# at most this many trainings at once per core: four trainings on 2 cores kept other learners' page switches under
# 1 s at the median (docs/performance.md); beyond that each training only gets slower, and waiting in line (with
# its place shown) brings a learner's result no later than sharing the cores with everyone
PER_CORE = 2


SHOWN_CHARS = 60  # the most of the setting's value a sentence repeats (as transformer.text.echo, without torch)


def _cut(text: str) -> str:
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"


def max_slots(cores: int) -> int:
    """The most trainings one server runs at once on a machine with `cores` cores."""
    return PER_CORE * max(1, cores)


def read_slots(value: str | None, cores: int, default: int) -> tuple[int, str | None]:
    """(slots, problem): the setting's value when it is a whole number from 1 to max_slots(cores); otherwise
    `default` (a bad value) or the cap (a value above it), with a sentence that names the value and says why."""
    text = (value or "").strip()
    if not text:
        return default, None
    digits = "".join(str(int(c)) for c in text).lstrip("0") if text.isdecimal() else ""  # ０ and ٣ in ASCII
    if not digits:
        return default, f"{ENV}={_cut(repr(value))} is not a whole number of at least 1"
    cap = max_slots(cores)
    slots = int(digits) if len(digits) <= 9 else cap + 1  # int() refuses more than 4,300 digits
    if slots > cap:
        return cap, (
            f"{ENV}={_cut(text)} is more than {PER_CORE} trainings per core ({cap} on {cores} core(s)); more at "
            "once only makes each one slower, while the others wait in line with their place shown"
        )
    return slots, None
