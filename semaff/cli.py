"""The ``semaff`` console script: dispatch to ``semaff.analyze``, ``semaff.eval``, ``semaff.robust``,
``semaff.punctuation`` and ``semaff.explain``.

Subcommands are imported only when run, so ``semaff analyze`` never imports the scorer and
``semaff explain --intents`` never loads an analyser.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

USAGE = """usage: semaff COMMAND [ARGS ...]

commands:
  analyze [--backend NAME] [HINT ...]   hints -> canonical intent documents, one JSON object per line
                                        (no HINT: one hint per stdin line)
  eval FILE.jsonl [--backend NAME]      evaluate an analyser on labelled rows; last line is JSON figures
  robust FILE.jsonl ... [--backend NAME] the same rows typed differently (curly quotes, no accents, typos, ...):
                                        how many read differently, accuracy and polarity flips per perturbation
  explain --hint TEXT --nodes FILE ...  per-node score breakdown for a hint
  punctuation train|cv [--margin M]     train the embedded analyser's comma model on the development files,
                                        or measure it by cross-validation (JSON figures)

backends: embedded (offline default), bedrock, openai.  `semaff COMMAND --help` for details."""


def _analyze(argv: list[str]) -> int:
    from semaff.analyze import analyze_main

    return analyze_main(argv)


def _eval(argv: list[str]) -> int:
    from semaff.eval import eval_main

    return eval_main(argv)


def _robust(argv: list[str]) -> int:
    from semaff.robust import robust_main

    return robust_main(argv)


def _punctuation(argv: list[str]) -> int:
    from semaff.punctuation import punctuation_main

    return punctuation_main(argv)


def _explain(argv: list[str]) -> int:
    try:
        from semaff.explain import explain_main
    except ImportError as exc:
        print(f"semaff explain is not available in this installation: {exc}", file=sys.stderr)
        return 2
    return explain_main(argv)


COMMANDS: dict[str, Callable[[list[str]], int]] = {
    "analyze": _analyze, "eval": _eval, "robust": _robust, "explain": _explain,
    "punctuation": _punctuation,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (the console-script wrapper passes it to ``sys.exit``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0 if args else 2
    if args[0] == "--version":
        from importlib.metadata import PackageNotFoundError, version

        try:
            print(f"semaff {version('semantic-affinity')}")
        except PackageNotFoundError:
            print("semaff (not installed)")
        return 0
    command = COMMANDS.get(args[0])
    if command is None:
        print(f"semaff: unknown command {args[0]!r}\n\n{USAGE}", file=sys.stderr)
        return 2
    try:
        return command(args[1:])
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
