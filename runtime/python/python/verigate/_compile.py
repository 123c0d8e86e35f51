"""The sandbox's compiler child: ``python -m verigate._compile INPUT OUTPUT ENGINE``.

A parent ``Grader`` runs this under CPU-time and address-space limits to
compile a module it has not seen, so a hostile module cannot take the parent
down at compile time. Exit status 0 if and only if the module compiled.
"""

import sys

from ._verigate import _serve_compile


def main(argv: "list[str]") -> int:
    if len(argv) != 3:
        print("usage: python -m verigate._compile INPUT OUTPUT ENGINE", file=sys.stderr)
        return 2
    try:
        _serve_compile(*argv)
    except Exception as error:  # the parent reads the reason from stderr
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
