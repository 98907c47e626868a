"""`python -m companion`: the same as the `companion` command."""

from companion.cli import main

raise SystemExit(main())
