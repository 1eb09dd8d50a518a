"""``python -m graphmem`` works like the ``graphmem`` command."""

from graphmem.cli import main

if __name__ == "__main__":
    main()
