"""A direct path for the odds of the tiniest shapes: ``NdM``, ``NdMkh1``/``kl1``, ``± k``.

``3d6``, ``2d20kh1`` (advantage), ``2d20kl1 + 5``, ``d20 - 2``: read with one regex and
computed without building the parsed tree, since for them the tree and its walk cost more
than the odds themselves. Anything else, or any number out of the default limits, returns
``None`` and takes the general way (parse, then :mod:`rules.odds.tree`); a test checks that
both ways give the same distribution wherever this one answers.
"""

from __future__ import annotations

import re
from itertools import repeat
from operator import sub

from rules.odds.weights import _Dist, _uniform_power

_SHAPE = re.compile(
    r" *([0-9]{1,3})?[dDкКдД]([0-9]{1,3})(k|kh|kl)?(?(3)1?)(?: *([-+\u2212]) *([0-9]{1,9}))? *"
)
#: the pools this path takes: few enough dice and faces that no step budget can run out
_MOST_DICE, _MOST_FACES = 100, 100


def _direct(text: str) -> _Dist | None:
    """The distribution of ``text`` if it is one of the tiny shapes, else None."""
    m = _SHAPE.fullmatch(text)
    if m is None:
        return None
    count_text, faces_text, keep, sign, constant = m.groups()
    count = 1 if count_text is None else int(count_text)
    faces = int(faces_text)
    if not (1 <= count <= _MOST_DICE and 2 <= faces <= _MOST_FACES):
        return None
    if keep is None or count == 1:
        offset, weights, denominator = count, _uniform_power(faces, count), faces**count
    else:  # the highest (lowest) of n: P(max <= v) = (v/M)**n
        cdf = list(map(pow, range(faces + 1), repeat(count)))
        weights = list(map(sub, cdf[1:], cdf))
        if keep == "kl":
            weights.reverse()
        offset, denominator = 1, cdf[-1]
    if sign is not None:
        offset += int(constant) if sign == "+" else -int(constant)
    return offset, weights, denominator
