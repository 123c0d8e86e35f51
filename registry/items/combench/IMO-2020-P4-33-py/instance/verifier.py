"""IMO 2020 Problem 4 (n = 33) construction check, as a stand-alone Python verifier.

The reference pipeline of the ComBench paper runs one `python3 verifier.py < payload`
process per item and reads `True` from its stdout. This script makes the checks the
paper's App. C.2 lists (tuple of two sets; integer pairs; 1056 cars each; stations in
range, u < v, distinct starts, distinct finishes, monotone; no pair linked by both
companies), written for verigate's benchmark. `verigate bench` times it against the
Rust guest built from guest-verifiers/combench-imo-2020-p4-33.
"""

import sys

STATIONS = 33 * 33
CARS = STATIONS - 33


def problem(data):
    if type(data) is not tuple or len(data) != 2:
        return "Parsed object is not a tuple of exactly two elements"
    for name, cars in zip(("A_lines", "B_lines"), data):
        if type(cars) is not set:
            return f"{name} is not a set"
        for car in cars:
            if type(car) is not tuple or len(car) != 2:
                return f"An item in {name} is not a tuple of exactly two elements"
            if any(type(end) is not int for end in car):
                return f"An item in {name} contains non-integers"
    for name, cars in zip(("A_lines", "B_lines"), data):
        if len(cars) != CARS:
            return f"{name} has {len(cars)} elements, expected {CARS}"
    for name, cars in zip(("A_lines", "B_lines"), data):
        starts, finishes, last = set(), set(), -1
        for u, v in sorted(cars, key=lambda car: car[0]):
            if not (1 <= u <= STATIONS and 1 <= v <= STATIONS):
                return f"Station out of range in {name}: ({u}, {v})"
            if u >= v:
                return f"Invalid transfer in {name}: ({u}, {v}), must be u < v"
            if u in starts:
                return f"Duplicate starting point {u} in {name}"
            if v in finishes:
                return f"Duplicate finishing point {v} in {name}"
            if v <= last:
                return f"Monotonicity violated in {name}: sequence of v is not strictly increasing."
            starts.add(u)
            finishes.add(v)
            last = v
    common = linked(data[0]) & linked(data[1])
    if common:
        return f"Intersection is not empty. Found linked pairs in both companies, e.g., {next(iter(common))}."
    return None


def linked(cars):
    """Every (a, b) such that b is reachable from a by one or more cars."""
    step = dict(cars)
    pairs = set()
    for start in step:
        at = start
        while at in step:
            at = step[at]
            pairs.add((start, at))
    return pairs


def main():
    text = sys.stdin.read().strip()
    if not text:
        print("Empty input")
        return
    try:
        data = eval(text)
    except Exception as error:  # the payload is untrusted text
        print(f"Failed to parse Python expression: {error}")
        return
    print(problem(data) or "True")


if __name__ == "__main__":
    main()
