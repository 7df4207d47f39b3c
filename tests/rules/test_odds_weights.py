"""The weight arithmetic under the exact odds: powers of a die's weights against plain
repeated convolution."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from rules.odds.weights import _power, _small_power, _uniform_power, _Work


def convolve_power(d: list[int], n: int) -> list[int]:
    out = [1]
    for _ in range(n):
        nxt = [0] * (len(out) + len(d) - 1)
        for i, a in enumerate(out):
            for j, b in enumerate(d):
                nxt[i + j] += a * b
        out = nxt
    return out


@settings(deadline=None, max_examples=200)
@given(
    st.lists(st.integers(0, 300), min_size=1, max_size=12).filter(lambda d: d[0] and d[-1]),
    st.integers(2, 12),
)
@example([1, 16], 2)  # 17**2 needs 9 bits, one weight is 256: two bytes a word
@example([1, 255], 2)  # 17 bits: four bytes
@example([1, 65536], 2)  # 33 bits, one weight 2**32: eight bytes
@example([1, 2**32], 2)  # 65 bits, one weight 2**64: the recurrence
def test_power_of_weights_is_repeated_convolution(d: list[int], n: int) -> None:
    """RULES §0: «Exact odds: every check has an exact outcome distribution (fractions, not
    sampling)» — the sum of n dice of weights d, by one big-integer power when its weights fit
    a machine word and by the recurrence when not, is the n-fold convolution."""
    expected = convolve_power(d, n)
    small = _small_power(d, n)
    assert small is None or small == expected
    if sum(d) ** n < 2**64:
        assert small is not None
    assert _power((5, d, sum(d)), n, _Work()) == (5 * n, expected, sum(d) ** n)


def convolve_uniform(faces: int, n: int) -> list[int]:
    """The n-fold convolution of ``faces`` weights of 1, one die at a time: adding a die makes
    each total's count the sum of the ``faces`` counts it can come from (one C-level ``sum``
    of a slice per total; the nested loops of :func:`convolve_power` did the same additions
    one by one, most of this file's CPU)."""
    out = [1]
    for _ in range(n):
        out = [sum(out[max(0, k - faces + 1) : k + 1]) for k in range(len(out) + faces - 1)]
    return out


def test_uniform_convolution_is_the_plain_one() -> None:
    """RULES §0: «`NdM`» — the oracle of the next test agrees with the plain convolution."""
    for faces, n in [(2, 2), (3, 5), (6, 3), (7, 4), (40, 2)]:
        assert convolve_uniform(faces, n) == convolve_power([1] * faces, n)


@settings(deadline=None, max_examples=60)
@given(st.integers(2, 40), st.integers(2, 30))
def test_uniform_power_is_repeated_convolution(faces: int, n: int) -> None:
    """RULES §0: «`NdM`» — the totals of n dice of M faces, counted exactly."""
    assert _uniform_power(faces, n) == convolve_uniform(faces, n)
