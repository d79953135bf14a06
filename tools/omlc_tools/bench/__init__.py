"""The subcommands of `tools/bench.py`, one module each.

Each module's docstring is its subcommand's help; it defines
`add_arguments(parser)` for its own options (the shared ones, `--bin`,
`--runs`, `--warmup`, come from `tools/bench.py`) and `main(args) -> int`.
"""
