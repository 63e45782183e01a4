"""The report document as one self-contained HTML page or as Markdown beside the PNG files."""
from __future__ import annotations

import base64
import html as H
from dataclasses import dataclass, field


@dataclass
class Table:
    title: str
    columns: list[str]
    rows: list[list[str]]


@dataclass
class Document:
    title: str
    overview: Table
    figures: list = field(default_factory=list)     # (Planned, png bytes)
    tables: list[Table] = field(default_factory=list)
    failures: list[tuple[str, str]] = field(default_factory=list)  # (heading, stderr tail)
    skipped: Table | None = None


CSS = """
body { font-family: sans-serif; margin: 2em auto; max-width: 1200px; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; }
th { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1em 0 2em; }
figure img { max-width: 100%; }
figcaption { font-size: 0.85em; color: #555; max-width: 60em; }
pre { background: #f6f6f6; padding: 0.5em; overflow-x: auto; font-size: 0.8em; }
.failed { color: #b00; }
"""


def _is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def html_table(t: Table, heading: bool = True) -> str:
    head = f"<h2>{H.escape(t.title)}</h2>\n" if heading else ""
    cols = "".join(f"<th>{H.escape(c)}</th>" for c in t.columns) if any(t.columns) else ""
    body = "\n".join(
        "<tr>" + "".join(f'<td class="num">{H.escape(c)}</td>' if _is_number(c) else
                         f'<td class="failed">{H.escape(c)}</td>' if c == "failed" else f"<td>{H.escape(c)}</td>"
                         for c in row) + "</tr>" for row in t.rows)
    return f"{head}<table>\n{'<tr>' + cols + '</tr>' if cols else ''}\n{body}\n</table>\n"


def html(doc: Document) -> str:
    parts = [f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{H.escape(doc.title)}"
             f"</title>\n<style>{CSS}</style>\n</head>\n<body>\n<h1>{H.escape(doc.title)}</h1>\n",
             html_table(doc.overview, heading=False)]
    if doc.failures:
        parts.append("<h2 class=\"failed\">Failed runs</h2>\n")
        parts += [f"<h3>{H.escape(h)}</h3>\n<pre>{H.escape(tail)}</pre>\n" for h, tail in doc.failures]
    for item, png in doc.figures:
        data = base64.b64encode(png).decode("ascii")
        parts.append(f"<h2>{H.escape(item.title)}</h2>\n<figure>\n<img alt=\"{H.escape(item.title)}\" "
                     f"src=\"data:image/png;base64,{data}\">\n"
                     f"<figcaption>{H.escape(item.caption)}</figcaption>\n</figure>\n")
    parts += [html_table(t) for t in doc.tables]
    if doc.skipped and doc.skipped.rows:
        parts.append(html_table(doc.skipped))
    parts.append("</body>\n</html>\n")
    return "".join(parts)


def _md_cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _numeric(rows: list[list[str]], i: int) -> bool:
    cells = [r[i] for r in rows if r[i]]
    return bool(cells) and all(map(_is_number, cells))


def md_table(t: Table, heading: bool = True) -> str:
    head = f"## {t.title}\n\n" if heading else ""
    lines = ["| " + " | ".join(_md_cell(c) for c in t.columns) + " |",
             "|" + "|".join("---:" if _numeric(t.rows, i) else "---" for i in range(len(t.columns))) + "|"]
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in t.rows]
    return head + "\n".join(lines) + "\n\n"


def markdown(doc: Document) -> str:
    parts = [f"# {doc.title}\n\n", md_table(doc.overview, heading=False)]
    if doc.failures:
        parts.append("## Failed runs\n\n")
        parts += [f"### {h}\n\n```\n{tail.replace('```', '` ` `')}\n```\n\n" for h, tail in doc.failures]
    for item, _ in doc.figures:
        parts.append(f"## {item.title}\n\n![{item.title}]({item.id}.png)\n\n{item.caption}\n\n")
    parts += [md_table(t) for t in doc.tables]
    if doc.skipped and doc.skipped.rows:
        parts.append(md_table(doc.skipped))
    return "".join(parts)
