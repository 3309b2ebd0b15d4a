#!/usr/bin/env python3
"""Make docs/screenshot.png, the README's picture of what a reviewer sees: the job summary
that `gate publish` writes for `gate demo`'s change, rendered to HTML and photographed by
headless Chromium. Not run by CI; run it again when the summary's look changes:

    apt-get install -y chromium fonts-noto-color-emoji   # Debian: the browser, the icons
    .venv/bin/pip install -e '.[docs]'     # python-markdown, to turn the summary into HTML
    .venv/bin/python docs/screenshot.py [--keep-html]

Everything comes from the real commands: the demo repository (gate.adopt.demo_repo), `gate run
--report`, then `gate publish` with GITHUB_STEP_SUMMARY pointing at a file. Without a token
`gate publish` adds a note that it posted nothing; that note is left out of the picture, which
shows what a workflow with a token shows.
"""
from __future__ import annotations

import html
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import markdown

from gate.adopt import demo_repo

DOCS = Path(__file__).resolve().parent
PNG = DOCS / "screenshot.png"
GATE = Path(sys.executable).parent / "gate"
WIDTH, HEIGHT = 1000, 670
NO_TOKEN_NOTE = "> No GitHub token:"
CSS = """
body { margin: 0; background: #f6f8fa; font: 14px/1.5 -apple-system, BlinkMacSystemFont,
       "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #1f2328; }
.frame { margin: 16px; background: #fff; border: 1px solid #d1d9e0; border-radius: 6px; }
.frame > h2 { margin: 0; padding: 12px 16px; font-size: 14px; border-bottom: 1px solid #d1d9e0; }
.markdown { padding: 4px 24px 16px; }
h3 { font-size: 18px; margin: 16px 0 12px; }
table { border-collapse: collapse; margin: 12px 0; }
th, td { border: 1px solid #d1d9e0; padding: 5px 12px; text-align: left; }
tr:nth-child(2n) { background: #f6f8fa; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
       background: #eff1f3; padding: 2px 5px; border-radius: 5px; }
a { color: #0969da; text-decoration: none; }
blockquote { margin: 0; padding: 0 12px; color: #59636e; border-left: 4px solid #d1d9e0; }
ul { padding-left: 24px; } li { margin: 4px 0; }
"""


def job_summary(work: Path) -> str:
    """The markdown `gate publish` appends to the job summary for the demo's change."""
    repo = work / "repo"
    repo.mkdir()
    demo_repo.build(str(repo))
    report = work / "report.json"
    run = subprocess.run([str(GATE), "run", "--repo", str(repo), "--base", "main", "--head",
                          "agent", "--format", "json", "--report", str(report)],
                         capture_output=True, text=True)
    if run.returncode not in (0, 1, 3):
        sys.exit(f"gate run failed (exit {run.returncode}):\n{run.stderr}")
    summary = work / "summary.md"
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GITHUB_", "GATE_", "GH_"))}
    env.update({"GITHUB_STEP_SUMMARY": str(summary), "GITHUB_REPOSITORY": "OWNER/calc",
                "GITHUB_SERVER_URL": "https://github.com"})
    subprocess.run([str(GATE), "publish", "--report", str(report)], env=env,
                   capture_output=True, text=True, check=False)
    text = summary.read_text(encoding="utf-8")
    return "\n".join(line for line in text.splitlines()
                     if not line.startswith(NO_TOKEN_NOTE)) + "\n"


def page(summary: str) -> str:
    body = markdown.markdown(summary, extensions=["tables", "fenced_code", "md_in_html"])
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>gate</title>"
            f"<style>{CSS}</style></head><body><div class='frame'>"
            f"<h2>{html.escape('gate summary')}</h2><div class='markdown'>{body}</div>"
            "</div></body></html>")


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        sys.exit("chromium is not installed: apt-get install -y chromium")
    return found


def photograph(html_file: Path, png: Path, profile: Path) -> None:
    subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", f"--user-data-dir={profile}", f"--window-size={WIDTH},{HEIGHT}",
         f"--screenshot={png}", html_file.as_uri()],
        check=True, capture_output=True, timeout=120)


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="gate-screenshot-") as tmp:
        work = Path(tmp)
        html_file = work / "summary.html"
        html_file.write_text(page(job_summary(work)), encoding="utf-8")
        profile = work / "chromium-profile"
        profile.mkdir()
        photograph(html_file, PNG, profile)
        if "--keep-html" in argv:
            shutil.copy(html_file, DOCS / "screenshot.html")
    print(f"wrote {PNG}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
