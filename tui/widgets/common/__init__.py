"""The key bar, the quick roll, and the small controls every tab uses."""
