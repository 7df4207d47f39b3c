"""Мир Тьмы's Проверка builder: the widgets that render its open check and turn keys into its
steps (``builder``: the pane; the other modules its parts)."""
