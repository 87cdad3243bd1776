"""Command line: `python -m transformer corpus …`, `… train …`, `… evaluate …`, `… translate …`, `… trace …`,
`… align …`, `… credits …` and `… store list|remove|prune`.

Bad input gives one line `error: …` on stderr and exit status 2; text from files (tokens, sentences, messages that
quote them) is printed with control and escape characters made visible (transformer.text.visible).
"""

from __future__ import annotations

import argparse
import sys

from .cli import align, corpus, credits, evaluate, store, trace, train, translate
from .cli.common import Parser, run_command

COMMANDS = {  # in the order --help lists them
    "corpus": corpus,
    "train": train,
    "evaluate": evaluate,
    "translate": translate,
    "trace": trace,
    "align": align,
    "credits": credits,
    "store": store,
}


def _parser() -> argparse.ArgumentParser:
    parser = Parser(prog="python -m transformer", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in COMMANDS.values():
        command.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; bad input gives one line on stderr and exit status 2. Ctrl-C and a closed output pipe
    end it quietly, as they end other command-line tools."""
    args = _parser().parse_args(argv)
    return run_command(COMMANDS[args.command].run, args)


if __name__ == "__main__":
    sys.exit(main())
