#!/usr/bin/env python3
"""No function in the folders every change passes through runs over a limit of lines
(docs/architecture.md, "Readable"): tools/starnuma and models/run, 150 lines. A function is
counted from the first line of its signature to its closing brace, lambdas inside it included.
KNOWN holds today's exceptions, each with the change that removes it; a known exception that no
longer occurs is an error too, so the list only shrinks. Exit 0 when clean, 1 listing every
problem as file:line.

    python3 tools/check_function_lengths.py [SOURCE_ROOT] [--list]

--list prints every function of the checked folders with its length, longest first.
"""
import os
import re
import sys

LIMIT = 150
FOLDERS = ["tools/starnuma", "models/run"]

# (file, function name): the change that removes the exception (issue 36).
KNOWN = {}

CONTROL = re.compile(r"\b(if|for|while|switch|catch|do|else|try)\s*(\(|$)")
SIGNATURE_END = re.compile(r"\)\s*(?:const|noexcept|override|final|mutable|\s|->\s*[\w:<>,\s*&]+)*$")
INIT_LIST = re.compile(r"\)\s*:(?!:)")
BRACE_INIT = ("", -1)
LAMBDA = re.compile(r"\[[^\[\]]*\]\s*(?:\([^()]*\))?\s*(?:mutable\s*)?(?:->\s*[\w:<>,\s*&]+)?$")
NAME = re.compile(r"([~\w:]+(?:operator\s*\S+)?)\s*\($")


def strip(text: str) -> str:
    """`text` with comments and string and character literals blanked, newlines kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == 'R' and text.startswith('R"', i):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (j + 1 - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def function_name(head: str) -> str:
    """The name a function signature `head` (up to its body's brace) defines."""
    if INIT_LIST.search(head):  # a constructor's initialiser list: the first call's name
        first = re.search(r"([~\w:]+)\s*\(", head)
        if first:
            return first.group(1)
    call = head[: head.rfind(")") + 1]
    depth, k = 0, len(call) - 1
    while k >= 0:  # the parameter list's opening parenthesis
        depth += {")": 1, "(": -1}.get(call[k], 0)
        if depth == 0:
            break
        k -= 1
    m = NAME.search(call[:k].rstrip() + "(") if k > 0 else None
    return m.group(1) if m else "lambda"


def functions(text: str):
    """(name, first line, length in lines) of every function body outside other function bodies:
    functions, member functions defined in their class, and lambdas outside any function."""
    code = strip(text)
    found = []
    stack = []  # per open brace: (name, start offset) of the function it opens, or None
    stmt_start = 0
    parens = 0  # braces within parentheses (default arguments, calls) belong to their statement

    def inside() -> bool:
        return any(o and o is not BRACE_INIT for o in stack)

    for i, c in enumerate(code):
        if c == "(":
            parens += 1
        elif c == ")":
            parens = max(0, parens - 1)
        elif c == ";" and parens == 0:
            stmt_start = i + 1
        elif c == "{" and parens == 0 and INIT_LIST.search(code[stmt_start:i]) and re.search(r"\w\s*$", code[:i]):
            stack.append(BRACE_INIT)  # a member's brace initialiser in a constructor's list
        elif c == "{":
            opened = None
            if not inside():
                head = code[stmt_start:i].strip()
                if parens > 0:  # a lambda passed as an argument (a registration)
                    m = LAMBDA.search(code, max(0, i - 400), i)
                    opened = ("lambda", m.start()) if m else None
                elif ((SIGNATURE_END.search(head) or INIT_LIST.search(head) and head.endswith("}")) and not CONTROL.search(head.split("(")[0] + "(")
                      and not re.match(r"^(namespace|class|struct|enum|union)\b", head)):
                    opened = (function_name(head), i - len(code[stmt_start:i].lstrip()))
            stack.append(opened)
            if parens == 0:
                stmt_start = i + 1
        elif c == "}" and stack and stack[-1] is BRACE_INIT:
            stack.pop()
        elif c == "}":
            opened = stack.pop() if stack else None
            if opened:
                name, start = opened
                first_line = code.count("\n", 0, start) + 1
                found.append((name, first_line, code.count("\n", start, i) + 1))
            if parens == 0:
                stmt_start = i + 1
    return found


def main(argv) -> int:
    args = [a for a in argv[1:] if not a.startswith("--")]
    root = args[0] if args else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    listing = "--list" in argv
    rows, problems, seen = [], [], set()
    for folder in FOLDERS:
        for base, _, files in os.walk(os.path.join(root, folder)):
            for f in sorted(files):
                if not f.endswith((".cpp", ".hpp")):
                    continue
                path = os.path.join(base, f)
                rel = os.path.relpath(path, root)
                with open(path, encoding="utf-8") as fh:
                    for name, line, length in functions(fh.read()):
                        rows.append((length, rel, line, name))
                        if length <= LIMIT:
                            continue
                        if (rel, name) in KNOWN:
                            seen.add((rel, name))
                            continue
                        problems.append(f"{rel}:{line}: {name} is {length} lines (at most {LIMIT})")
    for rel, name in sorted(set(KNOWN) - seen):
        problems.append(f"{rel}: {name} is a known exception but no longer over {LIMIT} lines: remove it from KNOWN")
    if listing:
        for length, rel, line, name in sorted(rows, reverse=True):
            print(f"{length:5} {rel}:{line} {name}")
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
