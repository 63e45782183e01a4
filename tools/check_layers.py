#!/usr/bin/env python3
"""The layers of the code only look down: no file includes a header of a higher layer
(docs/architecture.md, "Layers"). Each folder has a rank; an include from a folder to one of
higher rank is an error, unless it is one of KNOWN, today's exceptions, each with the change that
removes it. A known exception that no longer occurs is an error too, so the list only shrinks and
stays true. Exit 0 when clean, 1 listing every problem as file:line.

    python3 tools/check_layers.py [SOURCE_ROOT]
"""
import os
import re
import sys

# Lowest first. A folder may include its own headers and those of any folder before it.
LAYERS = [
    "models/common",  # the component framework: units, parameters, scopes, registries, statistics
    "stimulus",  # workloads and traces: streams of operations, below every model
    "models/cache",
    "models/paging",  # the OS's page map, page tables and per-page counts, below the core that walks them
    "models/debug",  # waveforms and transaction traces
    "models/memory",
    "models/fabric",
    "models/pool",
    "models/coherence",
    "models/core",
    "models/tracking",
    "models/socket",
    "models/os",
    "models/plugin",
    "models/platform",
    "models/run",
    "tools/starnuma/subprocess.hpp",  # the tools' own base: child processes, option limits
    "tools/starnuma/subprocess.cpp",
    "tools/starnuma/option_limits.hpp",
    "tools/starnuma/sweep",
    "tools/starnuma",
]

# (including file, included header): the change that removes the exception (issue 36).
KNOWN = {}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(path: str) -> int:
    """The rank of the deepest layer folder holding `path` (-1: none)."""
    best, depth = -1, -1
    for rank, folder in enumerate(LAYERS):
        if (path == folder or path.startswith(folder + "/")) and folder.count("/") > depth:
            best, depth = rank, folder.count("/")
    return best


def resolve(root: str, including: str, header: str) -> str | None:
    """The included header's path from the source root, as the build's include roots find it."""
    for base in (os.path.dirname(including), "models", "", "tools/starnuma"):
        candidate = os.path.normpath(os.path.join(base, header))
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate
    return None


def main() -> int:
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    problems, seen = [], set()
    for top in ("models", "stimulus", "tools/starnuma"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith((".cpp", ".hpp", ".h")):
                    continue
                path = os.path.relpath(os.path.join(folder, name), root)
                rank = layer_of(path)
                text = open(os.path.join(root, path), encoding="utf-8").read()
                for m in INCLUDE.finditer(text):
                    target = resolve(root, path, m.group(1))
                    if target is None or layer_of(target) <= rank:
                        continue
                    if (path, m.group(1)) in KNOWN:
                        seen.add((path, m.group(1)))
                        continue
                    line = text.count("\n", 0, m.start()) + 1
                    problems.append(f"{path}:{line}: includes {m.group(1)}, of the higher layer "
                                    f"{LAYERS[layer_of(target)]} ({LAYERS[rank]} may include only layers below it; "
                                    "docs/architecture.md)")
    for (path, header), change in sorted(KNOWN.items()):
        if (path, header) not in seen:
            problems.append(f"{path}: no longer includes {header}: take it out of KNOWN in tools/check_layers.py "
                            f"(removed by: {change})")
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
