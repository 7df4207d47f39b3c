"""Мир Тьмы's sheet: traits as dots."""

from __future__ import annotations


def dots(value: int, top: int = 5) -> str:
    """Return Мир Тьмы dots: ``●●●○○``."""
    value = max(0, min(value, top))
    return "●" * value + "○" * (top - value)
