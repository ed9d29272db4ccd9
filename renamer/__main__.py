from renamer.entry import main

try:
    main()
finally:
    # `python -m renamer` only: CPython (3.11-3.13) marks a KeyboardInterrupt that ended any string
    # exec/eval (a dataclass or namedtuple being made as SIGTERM or Ctrl-C came) as unhandled, even
    # once caught, and then exits by SIGINT in place of the code chosen here (130 with "renamer:
    # aborted" became a death by signal 2). Every string exec clears that mark first; this one is
    # a constant and runs nothing. The console script never passes through that check.
    exec("pass")
