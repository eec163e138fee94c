#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Add file patterns to a MAINTAINERS entry, creating the entry if needed.

usage: maintainers.py MAINTAINERS TITLE [--header 'M:\tName <a@b>' ...] PATTERN...

An existing entry gets the patterns as F: lines, kept sorted; a new entry is
placed where the file's alphabetical order puts its title, with the given
header lines (M:, L:, S:) first.
"""
import sys


def main():
    path, title, *rest = sys.argv[1:]
    header, pats = [], []
    while rest:
        a = rest.pop(0)
        if a == "--header":
            header.append(rest.pop(0))
        else:
            pats.append(a)
    lines = open(path).read().split("\n")
    # An entry title is a line followed by a "X:\t" line.
    titles = [i for i in range(len(lines) - 1)
              if lines[i] and not lines[i][1:3] == ":\t" and lines[i + 1][1:3] == ":\t"]
    start = next((i for i in titles if lines[i] == title), None)
    if start is None:
        # After the entry of the greatest title below ours (the file is
        # mostly, not strictly, sorted), from the first title after the
        # list's introduction on.
        first = next(i for i in titles if lines[i].startswith("3C59X"))
        below = [i for i in titles if i >= first and lines[i].upper() < title.upper()]
        prev = max(below, key=lambda i: lines[i].upper())
        at = prev + 1
        while at < len(lines) and lines[at]:
            at += 1
        at += 1
        lines[at:at] = [title] + header + [""]
        start = at
    end = start + 1
    while end < len(lines) and lines[end]:
        end += 1
    body = lines[start + 1:end]
    keep = [l for l in body if not l.startswith("F:\t")]
    files = sorted(set([l for l in body if l.startswith("F:\t")] + ["F:\t" + p for p in pats]))
    # F: lines go after the other tags but before X:/K:/N: ones, as in the file.
    tail = [l for l in keep if l[:2] in ("K:", "N:", "X:")]
    head = [l for l in keep if l not in tail]
    lines[start + 1:end] = head + files + tail
    open(path, "w").write("\n".join(lines))


if __name__ == "__main__":
    main()
