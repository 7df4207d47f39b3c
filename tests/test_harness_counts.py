"""The pilot keeps the count of a callback's parameters per function (tests/conftest.py
``_parameters_counted_once``): each count is still the signature's."""

from __future__ import annotations

import inspect
from functools import partial

import textual._callback as callback


class Widgetish:
    def two(self, a: object, b: object) -> None: ...

    def spread(*args: object) -> None:  # no named self: binding takes the first of *args
        ...


def three(a: object, b: object, c: object = None) -> None: ...


def test_every_kind_of_callable_counts_as_its_signature_says_then_and_from_the_cache() -> None:
    first, second = Widgetish(), Widgetish()
    callables = [
        three,
        lambda: None,
        first.two,
        second.two,  # another object, the same function: the kept count
        Widgetish.two,  # the function itself: not its bound count
        first.spread,
        Widgetish.spread,
        partial(three, 1),
        partial(first.two, 1),
        Widgetish,
        print,
    ]
    assert getattr(callback, "_counted_once", False)  # the pilot's count is the one in use
    for func in callables * 2:
        assert callback._count_parameters(func) == len(inspect.signature(func).parameters), func


def test_textual_calls_a_partial_with_what_is_left_of_the_signature() -> None:
    obj = Widgetish()
    assert callback.count_parameters(partial(three, 1, c=3)) == 1
    assert callback.count_parameters(partial(partial(three, 1), 2)) == 1
    assert callback.count_parameters(partial(obj.two, 1)) == 1
    assert callback.count_parameters(partial(Widgetish().two)) == 2
