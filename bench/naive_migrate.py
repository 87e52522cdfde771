#!/usr/bin/env python3
"""The migration people write by hand, for comparison in bench/transfers.py:
create every tensor on the CPU as before and append `.to(device)` to it, and
move models and losses after their declaration (same as the tool).

usage: naive_migrate.py IN OUT
"""
import re
import sys

FACTORIES = ("randn rand randint randperm zeros ones empty full arange linspace eye tensor "
             "normal from_blob").split()
CALL = re.compile(r"torch::(%s)\(" % "|".join(FACTORIES))
MODULE = re.compile(r"^(\s*)(?:auto (\w+) = std::make_shared<\w+>\(\);|"
                    r"torch::nn::(?:Linear|CrossEntropyLoss|MSELoss) (\w+)\(.*\);)\s*$")


def close_paren(text, open_index):
    depth = 0
    for i in range(open_index, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError("unbalanced parentheses")


def migrate(text):
    out, pos = [], 0
    for match in CALL.finditer(text):
        if match.start() < pos:
            continue
        end = close_paren(text, match.end() - 1)
        # A leaf that requires grad must stay a leaf: what a careful hand
        # migration writes (a plain .to() would make it a non-leaf).
        move = (".to(device).detach().requires_grad_()"
                if "requires_grad" in text[match.start():end] else ".to(device)")
        out.append(text[pos:end + 1] + move)
        pos = end + 1
    text = "".join(out) + text[pos:]
    lines = []
    for line in text.splitlines(keepends=True):
        lines.append(line)
        m = MODULE.match(line)
        if m:
            lines.append("%s%s->to(device);\n" % (m.group(1), m.group(2) or m.group(3)))
    text = "".join(lines)
    include = text.index("#include <torch/torch.h>")
    eol = text.index("\n", include) + 1
    return (text[:eol] + "#include <todevice/todevice.h>\n"
            "const torch::Device device = todevice::default_device();\n" + text[eol:])


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        migrated = migrate(f.read())
    with open(sys.argv[2], "w") as f:
        f.write(migrated)
