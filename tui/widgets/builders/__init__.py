"""The Проверка tab: one check builder per rules system."""
