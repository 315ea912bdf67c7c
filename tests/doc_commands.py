"""The shell commands README.md and docs/*.md quote (tests/test_doc_commands.py).

A command is a logical line of a ```sh block (a trailing backslash joins the next
line; a heredoc's body belongs to the line that opens it), a line of an indented
code block that starts with a program (below), or an inline `code` span
that starts with a program a reader would type (``make``, ``.venv/bin/python``,
``tools/replay``, ``pipx`` ...; ``VAR=value`` prefixes allowed) and has at least one
argument. Whitespace inside a span (a span broken over two lines) is one space.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
PROGRAMS = {"make", ".venv/bin/python", "tools/replay", "python", "python3", "py", "pip",
            "pipx", "brew", "circup", "sudo", "lsblk", "cat", "npm", "xdotool", "Xvfb", "git",
            "node"}
_ASSIGN = re.compile(r"[A-Z_][A-Z0-9_]*=\S*$")


def _is_command(span):
    words = span.split()
    while words and _ASSIGN.match(words[0]):
        words = words[1:]
    return len(words) >= 2 and words[0] in PROGRAMS


def commands(text):
    """The commands quoted in one markdown text, in order (duplicates kept)."""
    out = []
    prose = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith("```"):
            # an indented code block: 4 spaces after a blank line (or another such line)
            if line.startswith("    ") and _is_command(line) and (
                    i == 0 or not lines[i - 1].strip() or lines[i - 1].startswith("    ")):
                out.append(line.strip())
            else:
                prose.append(line)
            i += 1
            continue
        shell = line[3:].strip() in ("sh", "bash", "shell")
        i += 1
        pending = ""
        heredoc = None
        while i < len(lines) and not lines[i].startswith("```"):
            body = lines[i]
            i += 1
            if heredoc is not None:
                pending += "\n" + body
                if body.strip() == heredoc:
                    out.append(pending)
                    pending, heredoc = "", None
                continue
            if not shell:
                continue
            pending = pending + ("\n" if pending else "") + body
            if body.endswith("\\"):
                continue
            tag = re.search(r"<<-?\s*'?\"?(\w+)'?\"?", body)
            if tag:
                heredoc = tag.group(1)
                continue
            if pending.strip() and not pending.lstrip().startswith("#"):
                out.append(pending.strip())
            pending = ""
        i += 1  # the closing fence
    for span in re.findall(r"(?<!`)`([^`]+)`(?!`)", "\n".join(prose)):
        span = " ".join(span.split())
        if _is_command(span):
            out.append(span)
    return out


def quoted():
    """``{command: [doc names]}`` over README.md and docs/*.md."""
    found = {}
    for doc in DOCS:
        for cmd in commands(doc.read_text()):
            found.setdefault(cmd, [])
            if doc.name not in found[cmd]:
                found[cmd].append(doc.name)
    return found
