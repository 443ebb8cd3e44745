"""The ``arena`` command line: one module per command, shared checks in :mod:`.helpers`."""
