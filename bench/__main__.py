"""``python -m bench [--smoke]``: see bench/README.md."""

from bench.run import main

raise SystemExit(main())
