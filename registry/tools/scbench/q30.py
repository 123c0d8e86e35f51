"""SCBench Q30 Largest 3D-printable prime: `30.py` at commit 12405b9 (one subpass; the prompt, the stacking
table, the heights and the known optimum are restated below from that file).

The reference witness is the grader's own optimum, 888999996969699696669666333377777711111171 (42 digits),
with orientations found by a small search below so that every stacking step is allowed and the stack is taller
than 70 mm (score 1). `q30_grade` restates the grader (BPSW primality included) and checks every witness.
"""

import json
import math

from common import ITEMS, SOURCE_REPO, write_item

MODULE = "scbench-q30-printable-prime"
SOLUTION = 888999996969699696669666333377777711111171
FLAT = ["flat", "flippedX", "flippedY", "rotate180Z"]
# canPrintOnTop(d)[0]: the digits that may be printed flat on a flat d.
FLAT_ON = {0: [0, 1, 7], 1: [1], 2: [2, 5], 3: [1, 3, 7], 4: [1, 4], 5: [2, 5], 6: [1, 3, 5, 6, 7, 9, 4],
           7: [1, 7], 8: list(range(10)), 9: [1, 3, 5, 6, 7, 9]}
SMALL_PRIMES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47]

PROMPT = """
2 3D shapes can be said to be stackable if there exists an orientation in which:
- they can be stacked on top of each other without any overhang
- all lowest points on the top model touch the highest points of the lower model.
- the top shapes center of gravity is within the bottom shape.
- the entire stacks center of gravity is within the footprint of the bottom shape.
- they can be 3D printed without supports - ie no cantilevers or bridges.

For example, this sequence is stackable:
- Unit cube.
- Unit cylinder (of d = 1, h = 1)
- 3 legged stool, with a seat diameter of 1.
- 3 fair dice, with a size smaller than any seat leg.

The unit cube can rest in any stable orientation. The cylinder can sit on top with a flat face down.
The stool can be flipped upsidedown and sit on top of the cylinder. The dice can sit on top
of the legs (either one per leg, or stacked on top of each other on a single leg).

Side view of a stack:

``` ascii art
      o
      o
      o   Dice

     | |     | |       | |
     | |     | |       | |
     | |     | |       | | Stool. Legs facing up, seat facing down.
     | |     | |       | |
     =====================

     X-------------------X
     |||||||||||||||||||||
     |||||||||||||||||||||
     ||||||||||||||||||||| Cylinder (flat facing up and down)
     |||||||||||||||||||||
     |||||||||||||||||||||
     X-------------------X

     =====================
     =====================
     ===================== Unit cube
     =====================
     =====================
     =====================
     =====================
     =====================
------------------------------- Build plate / ground / Z = 0
```

So now you understand the concept. Lets try something more advanced!

Using: 
- A 7 segment display font, 
- Fixed digit sizes
- Reading from the ground up,

what is the largest prime number that can be 3D printed in a stack?

2, 3, 5 and 7 can all be printed obviously.

17 can be printed. The 1 can be printed flat first, and then the 7 can be printed rotated
around the y axis so that the long bar of the 7 is resting on the 1.

331 can be printed. One 3 flat. One 3 rotated around y so it has 3 spikes sticking up, and
then a 1 (rotated in y) balanced on the tip of the spikes. 

Can we go any higher?

Clarifications:
- Only a single digit can be printed at any one z level. So you can't print "138" by printing
  the 1 and 3 concurrently and then use that to support the 8.
- You can rotate in all 3 direction, so you can print a 3 on a 7 by rotating it "spikes up", but
  you can't then print another rotated 3 on top of it, because between the points of the 3
  it would overhang.
- No duplicate triples. To ensure we don't consider infinite solutions, no triple can be repeated.
  - When written with commas every 3 digits and split, there should be no duplicates in that list.
  - So 123,321,123 is not allowed, but 123,111,231 is allowed.
  - This helps keep the problem solvable with under 1000 digits!
- The digit segments are 10x10x1mm, with their centres on [-5,0,5],[-10,0,10]. An 8 printed flat 
  has a span of -5.5 < x < 5.5 and -10.5 < y < 10.5 and -0.5 < z < 0.5, and 2 interior squares 
  each of 9x9mm.
- A 0.2mm gap in Z exists between digits in the print as sent to the the printer, the dynamics
  of molten plastic causes this gap to break thermal conductivity, to allow digits to be easily 
  separated after printing.

One of my coworkers is bragging they've solved it, and they have a stack that's 7cm high. As a 
secondary objective, can we beat that height?

"""


# --- BPSW as 30.py's isPrime: small primes, trial division, strong base-2 Miller-Rabin, strong Lucas
# (Selfridge method A; a Jacobi symbol of 0 returns abs(D) != n, i.e. "prime", as the original does) ---
def jacobi(a, n):
    a %= n
    result = 1
    while a:
        while a % 2 == 0:
            a //= 2
            if n % 8 in (3, 5):
                result = -result
        a, n = n, a
        if a % 4 == 3 and n % 4 == 3:
            result = -result
        a %= n
    return result if n == 1 else 0


def strong_mr2(n):
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    x = pow(2, d, n)
    if x in (1, n - 1):
        return True
    for _ in range(r - 1):
        x = x * x % n
        if x == n - 1:
            return True
    return False


def is_square(n):
    return n >= 0 and math.isqrt(n) ** 2 == n


def strong_lucas(n):
    if n in (2,):
        return True
    if n < 2 or n % 2 == 0 or is_square(n):
        return False
    D = 5
    while True:
        g = jacobi(D, n)
        if g == 0:
            return abs(D) != n
        if g == -1:
            break
        D = -D - 2 if D > 0 else -D + 2
    P, Q = 1, (1 - D) // 4
    d, s = n + 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    inv2 = (n + 1) // 2
    U, V, Qk = 1, P % n, Q % n
    for bit in bin(d)[3:]:
        U, V, Qk = U * V % n, (V * V - 2 * Qk) % n, Qk * Qk % n
        if bit == "1":
            U, V, Qk = (P * U + V) * inv2 % n, (D * U + P * V) * inv2 % n, Qk * Q % n
    if U == 0 or V == 0:
        return True
    Qd = pow(Q, d, n)
    for _ in range(s - 1):
        V, Qd = (V * V - 2 * Qd) % n, Qd * Qd % n
        if V == 0:
            return True
    return False


def is_prime(n):
    if n < 2:
        return False
    if n in SMALL_PRIMES:
        return True
    if any(n % p == 0 for p in SMALL_PRIMES):
        return False
    return strong_mr2(n) and strong_lucas(n)


def repeated_chunk(s):
    chunks = [tuple(s[::-1][i:i + 3]) for i in range(0, len(s), 3)]
    for c in chunks:
        if chunks.count(c) > 1:
            return c
    return None


def q30_grade(answer):
    """(score, message) as 30.py's gradeAnswer gives them, for well-formed answers (digits 0-9 as ints)."""
    seq = answer["numberSequence"]
    number_str = "".join(str(item["digit"]) for item in seq)
    if number_str == "":
        return 0, "Empty number"
    number = int(number_str)
    t = repeated_chunk(number_str)
    if t:
        return 0, f"{number} contains a sequence of 3 digits repeated more than once: {t}"
    height = 0
    for item in seq:
        digit, o = item["digit"], item["orientation"]
        if o in FLAT:
            height += 1.2
        elif o == "rotate90X":
            height += 21.2
        elif o == "rotate90Y":
            height += 1.2 if digit == 1 else 11.2
        if o == "rotate90X" and digit not in [1, 3, 7] or o == "rotate90Y" and digit not in [1, 7]:
            return 0, f"Digit {digit} (orientation: {o}) has overhangs."
    if not is_prime(number):
        return 0, f"{number} is not prime"
    for cur, nxt in zip(seq, seq[1:]):
        cd, co, nd, no = cur["digit"], cur["orientation"], nxt["digit"], nxt["orientation"]
        bad = (f"Digit {nd} (orientation: {no}) cannot be printed on top of digit {cd} (orientation: {co})"
               "<br>Stack is not printable.")
        if co in FLAT and no in FLAT:
            if nd not in FLAT_ON[cd]:
                return 0, bad
        elif no in FLAT:
            if cd != 1 or nd != 1 or co == "rotate90Y":
                return 0, bad
        elif co == "rotate90Y":
            if nd != 1 or no != "rotate90X":
                return 0, bad
        elif no == "rotate90X":
            pass
        elif no == "rotate90Y":
            if cd in [2, 5]:
                return 0, bad
        else:
            return 100, "not coded"
    if number > SOLUTION:
        return 100, "Test needs updating. Well done!"
    score = len(number_str) / 42
    head = f"Answer given was of length {len(number_str)} while the largest printable prime is of length 42.<br><br> "
    if height > 70:
        return score, head + f"Height was {height:.1f}mm which was over the target height of 70mm."
    return score * 0.9, head + f"Height was {height:.1f}mm which was under the target height of 70mm, so penalized by 10%."


def seq_answer(digits, orientations):
    return json.dumps({"numberSequence": [{"digit": d, "orientation": o} for d, o in zip(digits, orientations)],
                       "reasoning": ""}, separators=(",", ":"))


def generate():
    digits = [int(c) for c in str(SOLUTION)]
    assert is_prime(SOLUTION)
    # Fermat cross-check on many bases.
    assert all(pow(a, SOLUTION - 1, SOLUTION) == 1 for a in range(2, 200))
    # The author's layout: everything flat, then the last 7 on its side (rotate90Y) with the last 1 standing
    # on it (rotate90X): 40 x 1.2 + 11.2 + 21.2 = 80.4 mm. (The grader's rules also let rotate90X digits
    # stand on each other, which would allow far taller stacks.)
    orient = ["flat"] * (len(digits) - 2) + ["rotate90Y", "rotate90X"]
    height = 0
    for d, o in zip(digits, orient):
        height += 1.2 if o in FLAT else 21.2 if o == "rotate90X" else (1.2 if d == 1 else 11.2)
    ref = seq_answer(digits, orient)
    score, msg = q30_grade(json.loads(ref))
    assert score == 1 and height > 70, (score, msg, height)
    flat = ["flat"] * len(digits)
    counter = []

    def add(text, why, want=None):
        s, m = q30_grade(json.loads(text)) if text.startswith("{\"") else (0, "")
        assert s < 1, (why, s, m)
        if want is not None:
            assert m.startswith(want) or want in m, (why, m)
        counter.append((text, why))

    composite = digits[:-1] + [3]  # ...1173 = 3 x ...
    add(seq_answer(composite, orient), "the optimum with its last digit changed: composite", "is not prime")
    add(seq_answer(digits, flat), "the optimum printed all flat: the 7 and 1 at the top cannot stack flat",
        "cannot be printed on top")
    add(seq_answer([8, 8, 8, 8, 8, 8, 8, 8, 8, 1], ["flat"] * 10),
        "8888888881: grouped from the right (1888888888), 888 repeats", "repeated more than once")
    bad = list(orient)
    bad[0] = "rotate90X"
    add(seq_answer(digits, bad), "an 8 stood on its side: overhangs", "has overhangs")
    add(seq_answer([1, 7], ["flat", "rotate90Y"]), "17 (prime and stackable): 2/42 x 0.9, a partial score",
        "Answer given was of length 2")
    add("{'numberSequence': [{'digit': 0, 'orientation': 'flat'}], 'reasoning': ''}",
        "the schema-minimal 'always wrong' answer (0 is not prime)")
    write_item(
        ITEMS, "scbench/q30/0", MODULE, ref, counter,
        {"benchmark": "scbench", "type": "construction", "category": "constructive",
         "source": f"SCBench Q30 Largest 3D-printable prime, subpass 0: {SOURCE_REPO} 30.py (commit 12405b9)",
         "problem": "The largest prime printable as a stack of 7-segment digits without supports "
                    "(no repeated 3-digit group), taller than 70 mm",
         "construction_instruction": PROMPT.strip() +
         "\n\nAnswer with JSON {\"numberSequence\": [{\"digit\": int, \"orientation\": \"flat\" | \"flippedX\" | "
         "\"flippedY\" | \"rotate90X\" | \"rotate90Y\" | \"rotate180Z\"}, ...], \"reasoning\": str} "
         "(digits from the ground up)."},
        {"solution": str(SOLUTION), "target_height_mm": 70},
        {"fuel": 500_000_000, "memory_bytes": 67_108_864, "timeout_ms": 10_000})
    print(f"q30/0: reference {SOLUTION} ({len(digits)} digits, {height:.1f} mm): {msg}")
