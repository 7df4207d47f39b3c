"""The app's own screens: the campaign picker, the campaign settings, the ``?`` keys."""
