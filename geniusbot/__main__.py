from geniusbot.cli import main

raise SystemExit(main())
