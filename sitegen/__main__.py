"""python -m sitegen: the same command as `axledger`."""

import sys

from sitegen.cli import main

if __name__ == "__main__":
    sys.exit(main(prog="python -m sitegen"))
