"""docs/validation.md and README's main-job lines from one database (docs/reports.md).

    validation_doc.py DIR      # DIR: a sweep of experiments/validation.yaml; writes
                               # docs/validation-data.json, docs/validation.md, README's main job
    validation_doc.py --paper DIR  # only the paper's evaluation (a sweep of experiments/paper.yaml,
                                   # experiments/results/paper) recomputed, every other value kept
    validation_doc.py --chmu DIR   # only the CHMU against the trackers (a sweep of experiments/chmu.yaml,
                                   # experiments/results/chmu) recomputed, every other value kept
    validation_doc.py --qos DIR    # the same for QoS telemetry (experiments/qos.yaml, results/qos)
    validation_doc.py --dcd DIR    # and dynamic capacity (experiments/dcd.yaml, results/dcd); several
                                   # of these three together: --qos DIR --dcd DIR
    validation_doc.py --sampled DIR  # only the sampled part (README's main job) from DIR, a sweep of
                                     # experiments/validation.yaml that ran it (`--only 'sampled-*'`)
    validation_doc.py --check  # the page and README are what docs/validation-data.json gives

The page's text is docs/validation.md.in: Markdown in which {{name}} is a value of the database
(validation_data.py computes them). docs/validation-data.json keeps the values the page was made
from, so that --check (a test of the suite) can tell a hand edit of a number from a regeneration.
"""
from __future__ import annotations

import difflib
import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "docs" / "validation.md.in"
PAGE = ROOT / "docs" / "validation.md"
DATA = ROOT / "docs" / "validation-data.json"
README = ROOT / "README.md"
PLACEHOLDER = re.compile(r"\{\{([A-Za-z0-9_.:+-]+)\}\}")
# README's copy of the main job's output, between these two lines.
BEGIN, END = "<!-- main job: from the validation database (tools/report/validation_doc.py) -->", "<!-- main job end -->"
GENERATED = ("<!-- Generated from docs/validation.md.in and the validation sweep's database by "
             "`bash experiments/validation.sh`: edit the template, not this page. -->\n")


class TemplateError(Exception):
    pass


def render(template: str, values: dict, where: str = "template") -> str:
    """TEMPLATE with every {{name}} replaced; an unknown name is an error naming its line."""
    missing = []
    for n, line in enumerate(template.splitlines(), 1):
        missing += [f"{where}:{n}: no value '{m}'" for m in PLACEHOLDER.findall(line) if m not in values]
        if "{{" in PLACEHOLDER.sub("", line):
            missing.append(f"{where}:{n}: '{{{{' that is no placeholder (a name is letters, digits and _.:+-)")
    if missing:
        raise TemplateError("\n".join(missing))
    return PLACEHOLDER.sub(lambda m: values[m.group(1)], template)


def main_job_block(values: dict) -> str:
    return "\n".join(["```", *values["readme.main_job"].splitlines(), "```"])


def readme_with(readme: str, values: dict) -> str:
    if BEGIN not in readme or END not in readme:
        raise TemplateError(f"{README}: no '{BEGIN}' ... '{END}' lines around the main job's output")
    head, rest = readme.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return head + BEGIN + "\n" + main_job_block(values) + "\n" + END + tail


def outputs(values: dict) -> dict:
    return {PAGE: GENERATED + render(TEMPLATE.read_text(), values, str(TEMPLATE.relative_to(ROOT))),
            README: readme_with(README.read_text(), values)}


def write_atomically(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def check() -> int:
    values = json.loads(DATA.read_text())
    bad = 0
    for path, want in outputs(values).items():
        got = path.read_text()
        if got != want:
            bad += 1
            diff = difflib.unified_diff(want.splitlines(), got.splitlines(), "generated", str(path), lineterm="", n=1)
            print(f"{path} is not what {DATA.name} and the template give:", *list(diff)[:40], sep="\n")
    if bad:
        print("Edit docs/validation.md.in (or README outside the main-job lines) and run "
              "`python3 tools/report/validation_doc.py --render`, or regenerate everything with "
              "`bash experiments/validation.sh`.")
    else:
        print(f"{PAGE.name} and README's main job are what {DATA.name} gives ({len(values)} values)")
    return 1 if bad else 0


def write(values: dict) -> None:
    pages = outputs(values)  # every error before anything is written
    write_atomically(DATA, json.dumps(values, indent=1, sort_keys=True) + "\n")
    for path, text in pages.items():
        write_atomically(path, text)
        print(f"wrote {path.relative_to(ROOT)}")


def data_module(name: str):
    sys.path.insert(0, str(Path(__file__).parent))
    import _interpreter
    _interpreter.ensure()  # pandas, through starnuma_results
    import importlib
    return importlib.import_module(name)


def main(argv: list) -> int:
    try:
        if argv == ["--check"]:
            return check()
        if argv == ["--render"]:  # the template changed, the data did not
            write(json.loads(DATA.read_text()))
            return 0
        if len(argv) == 1 and not argv[0].startswith("-"):
            write(data_module("validation_data").values(argv[0]))
            return 0
        if len(argv) == 2 and argv[0] == "--paper":  # the paper's sweep alone, the rest as it was
            results = data_module("starnuma_results")
            try:
                paper = data_module("paper_data").values(argv[1])
            except results.SweepError as e:
                print(f"error: {e}", file=sys.stderr)
                return 1
            values = {k: x for k, x in json.loads(DATA.read_text()).items() if not k.startswith("paper.")}
            write({**values, **paper})
            return 0
        if len(argv) == 2 and argv[0] == "--sampled":  # the sampled part again alone, the rest as it was
            values = {k: x for k, x in json.loads(DATA.read_text()).items()
                      if not k.startswith(("sampled.", "readme."))}
            write({**values, **data_module("validation_data").sampled_values(argv[1])})
            return 0
        studies = argv[0::2]
        if argv and len(argv) % 2 == 0 and all(a in ("--chmu", "--qos", "--dcd") for a in studies):
            # those studies recomputed (each from its DIR), the rest as it was
            values = json.loads(DATA.read_text())
            for flag, sweep in zip(studies, argv[1::2]):
                name = flag[2:]
                values = {k: x for k, x in values.items() if not k.startswith(name + ".")}
                values.update(data_module("validation_data").committed_values(name, sweep))
            write(values)
            return 0
    except TemplateError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
