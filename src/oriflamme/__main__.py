"""``python -m oriflamme``: the same as the ``oriflamme`` command."""

from oriflamme.cli.main import main

raise SystemExit(main())
