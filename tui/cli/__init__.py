"""The ``kubik`` command: the app's options, one module per subcommand and system."""
