"""SCBench Q8 Polynomial Curve Fitting: `8.py`, index id 53509804276 (`GENERATOR_VERSION = "v2"`,
9 subpasses). The grids are regenerated here with CPython's own `random.Random(seed)` and `math`,
following the original's generator (Gaussian blobs, negative blobs, waves, 3x3 smoothing, quantile
threshold), and checked against the sha256 digests the research digest (Appendix A) took of the
original's output. Reference answers: for the grids up to 24x24, the repository's own
human-with-tools answer (`placebo_data/q8.py`: the product of ((x-a)**2+(y-b)**2) over every '.'
cell (a, b), minus 1, a true polynomial; rebuilt here from that rule); for the larger grids, whose
products have thousands of big-integer factors per cell (22G-92G fuel on 48x48-64x64, and too deep
for CPython 3.11's compiler on 96x96 and 128x128), one comparison "run indicator" per horizontal
run of '#', `(y == r) * (a <= x <= b)`, summed: the original's letter filter admits comparison
operators, so this scores 1 there too (but is not what the prompt asks for).
"""

import hashlib
import json
import math
import random
import re
from fractions import Fraction

from common import ITEMS, SOURCE_REPO, write_item

# SUBPASS_CONFIG of 8.py: (size, seed, fill_ratio, freq_limit, blob_count, wave_count,
# smooth_passes, label); the sha256 of the rows joined by "\n" and the number of '#'.
Q8_CONFIGS = [
    (8, 11, 0.45, 2, 3, 1, 2, "Small blob cluster",
     "ea5dc556a4dad11248ef67b3c2996a1c7c7264369c2164782f2cb88775866908", 30),
    (12, 23, 0.5, 2, 4, 2, 2, "Smooth corner",
     "bfc040e91eeeab19eb75c09a726ed0822e557ed91adc7110986b3b54ed60b0e1", 73),
    (24, 37, 0.38, 2, 5, 2, 3, "Island just off centre",
     "a438c16240c7becd22abc58ce2cd111b671a692f996b710396e797fd1f29d71c", 220),
    (24, 49, 0.55, 2, 2, 1, 2, "Twin islands",
     "b9b8bc767f23ac0daf84e091f3f8ada4642a633f7dd7e2f8f5b4a45201785f1f", 318),
    (48, 61, 0.42, 3, 7, 3, 4, "Low-frequency Thumb",
     "8f2fa731b019ede5092430ce1885f1067ec88677776c69aba770f1e72f8a4449", 969),
    (64, 73, 0.45, 3, 8, 3, 4, "Peanut shape",
     "7262a72a107c62be92979546086aa0630e4a94f64f89ba2ad7e8b528994e8524", 1844),
    (96, 85, 0.45, 3, 8, 3, 4, "Ellipse",
     "378fba3abff5903e6ec5de9cb812728abcaa03d5ddfb98a1af015dbef3052fa9", 4148),
    (50, 86, 0.3, 8, 12, 2, 1, "Asteroid",
     "2dae4d2994b8cad268c86ccd8845a3f470518c13736a2998f6f8dd50d6325079", 751),
    (128, 97, 0.45, 3, 8, 3, 4, "Hallowean Decoration",
     "d4f62144003ab1a5280817986a5f8548049e0995bd191c89f2c50d3ff5ba8a5f", 7374),
]
Q8_IMAGE_THRESHOLD = 40  # larger grids were sent as an image

# The prompt template of 8.py (GRIDSIZE and GRIDDETAILS substituted per subpass).
Q8_PROMPT = """

Here is an GRIDSIZExGRIDSIZE grid representing a space partition:

GRIDDETAILS

0, 0 is the top left, x is horizontal, y is vertical. Coordinates are in integers.

Using the formula:

let cell = 
   '#' if f(x,y) > 0
   '.' if f(x,y) <= 0

where f(x,y) is a polynomial of whatever degree you need to solve this. You can include cross terms like x*y, x**2*y, x*y**2, etc.

Return the formula as Python function f(x,y) that uses ONLY:
- arithmetic operations (+, -, *, /)
- powers (**) 
- parentheses for grouping
- integer coordinates x, y
- the words "def" and "return"

Do not use type annotations, casts, conditionals, branches, additional variables, comments or anything else.

You can use the following example as a template:

def f(x, y):
    return x**2 + 3*y**2 - 4*x*y - 145

"""


def q8_grid(size, seed, fill_ratio, freq_limit, blob_count, wave_count, smooth_passes):
    """The grid rows, drawing from random.Random(seed) in the original's order."""
    rng = random.Random(seed)
    freq_limit = max(1, min(freq_limit, 3))
    blobs = []
    for count, sigma_range, sign, amp_range in (
            (blob_count, (0.18, 0.38), 1, (0.9, 1.6)),
            (max(1, blob_count // 3), (0.25, 0.5), -1, (0.4, 0.9))):
        for _ in range(count):
            cx = rng.uniform(0, size - 1)
            cy = rng.uniform(0, size - 1)
            sigma = rng.uniform(size * sigma_range[0], size * sigma_range[1])
            amp = rng.uniform(*amp_range)
            blobs.append((cx, cy, sigma, amp if sign > 0 else -amp))
    waves = []
    for _ in range(wave_count):
        fx = rng.randint(1, freq_limit)
        fy = rng.randint(1, freq_limit)
        phase = rng.uniform(0, 2 * math.pi)
        amp = rng.uniform(0.05, 0.12) * (1 if rng.random() > 0.5 else -1)
        waves.append((fx, fy, phase, amp))
    field = []
    for y in range(size):
        row = []
        for x in range(size):
            value = 0.0
            for cx, cy, sigma, amp in blobs:
                dx, dy = x - cx, y - cy
                value += amp * math.exp(-(dx * dx + dy * dy) / (2 * sigma * sigma))
            for fx, fy, phase, amp in waves:
                value += amp * math.sin((x * fx + y * fy) * 2 * math.pi / size + phase)
            row.append(value)
        field.append(row)
    weights = {(dx, dy): 4 if dx == dy == 0 else 2 if dx == 0 or dy == 0 else 1
               for dy in (-1, 0, 1) for dx in (-1, 0, 1)}
    for _ in range(smooth_passes):
        smoothed = []
        for y in range(size):
            row = []
            for x in range(size):
                acc = 0.0
                for dy in (-1, 0, 1):
                    ny = min(size - 1, max(0, y + dy))
                    for dx in (-1, 0, 1):
                        nx = min(size - 1, max(0, x + dx))
                        acc += field[ny][nx] * weights[(dx, dy)]
                row.append(acc / 16.0)
            smoothed.append(row)
        field = smoothed
    fill_ratio = max(0.2, min(0.8, fill_ratio))
    values = sorted(v for row in field for v in row)
    threshold = values[int((1 - fill_ratio) * (len(values) - 1))]
    return ["".join("#" if v >= threshold else "." for v in row) for row in field]


def q8_config_hash(config):
    """_config_hash of 8.py (names the prompt image)."""
    size, seed, fill, freq, blobs, waves, passes, label = config[:8]
    payload = {"size": size, "seed": seed, "fill_ratio": fill, "freq_limit": freq, "blob_count": blobs,
               "wave_count": waves, "smooth_passes": passes, "label": label, "generator_version": "v2"}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:12]


def q8_prompt(sp, config, rows):
    size = config[0]
    if size > Q8_IMAGE_THRESHOLD:
        text = Q8_PROMPT.replace("GRIDSIZE", str(size)).replace("GRIDDETAILS", "(See attached image.)")
        text = text.replace("'.'", "white").replace("'#'", "black")
        text = text.rstrip() + f"\n\n[[image:results/8_grid_reference_{sp}_{q8_config_hash(config)}.png]]\n"
        text += "\n(The attached image shows this grid, black = '#', white = '.':)\n" + "\n".join(rows) + "\n"
    else:
        text = Q8_PROMPT.replace("GRIDSIZE", str(size)).replace("GRIDDETAILS", "\n".join(rows))
    return text + "\nAnswer with JSON {\"reasoning\": \"...\", \"function\": \"def f(x, y):\\n    return ...\"}."


def q8_pow_exceptions(size):
    """Matched counts whose score (k / N²) ** 4 in CPython (glibc pow) is not the correctly rounded
    fourth power; the verifier computes the latter exactly and takes these from the instance."""
    cells = size * size
    out = []
    for k in range(cells + 1):
        m = k / cells
        if m >= 0.75 and m ** 4 != float(Fraction(m) ** 4):
            out.append([k, m ** 4])
    return out


def q8_runs(rows):
    return [(y, m.start(), m.end() - 1) for y, row in enumerate(rows) for m in re.finditer("#+", row)]


def q8_answer(terms, tail=""):
    body = "\n".join(("        " if k == 0 else "        + ") + t for k, t in enumerate(terms))
    function = f"def f(x, y):\n    return (\n{body}\n    ){tail}"
    return json.dumps({"reasoning": "one indicator per run of #", "function": function})


def q8_human_answer(rows):
    """placebo_data/q8.py's answer: zero on every '.', at least 1 - 1 > 0 elsewhere."""
    dots = [(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "."]
    factors = " * ".join(f"((x-{x})**2+(y-{y})**2)" for x, y in dots)
    return json.dumps({"function": f"def f(x, y):\n    return {factors} - 1"})


def q8_function_answer(function):
    return json.dumps({"reasoning": "", "function": function})


def generate():
    # One real (imperfect) run answer per subpass as a counterexample, taken from the agreement
    # fixtures (tests/fixtures/scbench/q8.jsonl), so the items follow that file.
    real = {}
    fixtures = ITEMS.parents[2] / "tests" / "fixtures" / "scbench" / "q8.jsonl"
    if fixtures.exists():
        for line in fixtures.read_text().splitlines():
            pair = json.loads(line)
            if 0 < pair["score"] < 1 and "known_difference" not in pair and pair["subpass"] not in real:
                real[pair["subpass"]] = (pair["model"], pair["answer"], pair["score"])
    for sp, config in enumerate(Q8_CONFIGS):
        size, digest, hashes, label = config[0], config[8], config[9], config[7]
        rows = q8_grid(*config[:7])
        assert hashlib.sha256("\n".join(rows).encode()).hexdigest() == digest, f"q8/{sp}: grid digest"
        assert sum(r.count("#") for r in rows) == hashes
        runs = q8_runs(rows)
        terms = [f"(y == {y}) * ({a} <= x <= {b})" for y, a, b in runs]
        # Shorten the first run by one cell: every cell but one matches.
        y0, a0, b0 = runs[0]
        near = [f"(y == {y0}) * ({a0 + 1} <= x <= {b0})" if a0 < b0 else f"(y == {y0}) * 0"] + terms[1:]
        counter = [
            (json.dumps({"reasoning": "", "function": ""}),
             "the schema-minimal answer (empty function): no `def f(x, y):`"),
            (q8_function_answer("def f(x, y):\n    return abs(x - y) - 3"),
             "uses abs: a letter left after the filter"),
            (q8_function_answer("f = lambda x, y: x*y - 10"), "a letter (l, a, m, b) and no def f(x, y):"),
            (q8_function_answer("def f(x, y, e=1):\n    return x*y - 10*e"), "no `def f(x, y):` signature"),
            (q8_function_answer("def f(x, y):\n    return 5 - y"), "the return does not use x"),
            (q8_function_answer("def f(x, y):\n    return (x - 3)**2 + (y - 4)**2 -"),
             "a syntax error: exec fails"),
            (q8_function_answer("def f(x, y):\n    return (x - 3)**2 + (y - 4)**2 + 1"),
             "positive everywhere: uniform output"),
            (q8_answer(near), "one cell off: a partial score, not 1"),
            (q8_answer(terms, " * -1 + 0.5"), "every cell inverted: under 75 % scores 0"),
            ("def f(x, y):\n    return x - y", "the bare function text, not a dict (the original raises)"),
        ]
        if sp in real:
            model, answer, score = real[sp]
            counter.append((answer, f"{model}'s stored answer (scored {score:.4f})"))
        construction = q8_prompt(sp, config, rows)
        write_item(
            ITEMS, f"scbench/q8/{sp}", "scbench-q8-polynomial-fit",
            q8_human_answer(rows) if size <= 24 else q8_answer(terms), counter,
            {"benchmark": "scbench", "type": "construction", "category": "constructive",
             "source": f"SCBench Q8 Polynomial Curve Fitting, subpass {sp} ({label}, {size}x{size}): "
                       f"{SOURCE_REPO} 8.py (index id 53509804276, GENERATOR_VERSION v2)",
             "problem": f"A function f(x, y) whose sign reproduces a {size}x{size} partition grid "
                        f"({hashes} '#' cells)",
             "construction_instruction": construction},
            {"size": size, "seed": config[1], "label": label, "sha256": digest, "rows": rows,
             "pow_exceptions": q8_pow_exceptions(size)},
            {"fuel": q8_fuel(size), "memory_bytes": 67_108_864, "timeout_ms": 60_000})
        print(f"q8/{sp}: {size}x{size}, {hashes} '#', {len(runs)} runs")


def q8_fuel(size):
    """Fuel, measured on the guest build: the references take 11M-3.1G; real answers up to 6.9G
    (gpt-5.2-Reasoning-Tools' exact degree-10 fit on 128x128) and 0.3G (gpt-5.2's degree-46 row
    selectors on 24x24). The repository's human-with-tools products need 1G (24x24), 22G (48x48),
    33G (50x50) and 92G (64x64; CPython grades it in 6 s); on 96x96 and 128x128 CPython 3.11 cannot
    compile them. Text grids (up to 24x24): 250M + 5M per cell (3.1G at 24x24); image grids: 50G
    (about 13 s here), so every answer above but the 64x64 product is graded."""
    return 250_000_000 + 5_000_000 * size * size if size <= 24 else 50_000_000_000
