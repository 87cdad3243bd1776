"""The command line, one module per command (each with register(subparsers) and run(args)); common.py holds what they
share. transformer/__main__.py builds the parser from them and dispatches."""
