//! Unit tests of the evaluator, feature by feature (the differential test in
//! `sdk/tests/python_differential.rs` checks the same against CPython at scale).

use super::*;

/// The repr of the result, or `Kind: message` for an error.
fn ev(src: &str) -> String {
    match eval(src) {
        Ok(v) => v.to_string(),
        Err(e) => format!("{}: {}", e.kind().python_name(), e.message()),
    }
}

fn check(cases: &[(&str, &str)]) {
    for (src, want) in cases {
        assert_eq!(ev(src), *want, "evaluating {src:?}");
    }
}

#[test]
fn literals() {
    check(&[
        ("1_000 + 0x_ff + 0o17 + 0b101", "1275"),
        (
            "123456789012345678901234567890",
            "123456789012345678901234567890",
        ),
        (
            "1.5, .5, 5., 1e3, 1_0.2_5, 1e400",
            "(1.5, 0.5, 5.0, 1000.0, 10.25, inf)",
        ),
        ("'a' \"b\" '''c'''", "'abc'"),
        (r#"'\x41\101\u00e9\U0001F600\t'"#, r"'AAé😀\t'"),
        (r"r'\d\n'", r"'\\d\\n'"),
        ("\"it's\"", "\"it's\""),
        ("'say \"hi\"'", "'say \"hi\"'"),
        ("'both \\' and \"'", r#"'both \' and "'"#),
        ("True, False, None", "(True, False, None)"),
        ("'\\x00\\x7f\\xa0é\\u200b'", r"'\x00\x7f\xa0é\u200b'"),
    ]);
}

#[test]
fn containers() {
    check(&[
        ("()", "()"),
        ("(1,)", "(1,)"),
        ("1, 2", "(1, 2)"),
        ("1,", "(1,)"),
        ("[1, [2, (3,)]]", "[1, [2, (3,)]]"),
        ("{3, 1, 2}", "{1, 2, 3}"),
        ("set(), frozenset(), {}", "(set(), frozenset(), {})"),
        ("frozenset({2, 1})", "frozenset({1, 2})"),
        ("{'b': 1, 'a': [2]}", "{'b': 1, 'a': [2]}"),
        ("{1: 'a', 1.0: 'b', True: 'c'}", "{1: 'c'}"),
        (
            "[*range(3), *'ab'], (*[1], 2), {*[1, 2], 3}",
            "([0, 1, 2, 'a', 'b'], (1, 2), {1, 2, 3})",
        ),
        ("{**{1: 2}, 3: 4, **{1: 5}}", "{1: 5, 3: 4}"),
        ("*[1, 2], 3", "(1, 2, 3)"),
        ("len({1, 1.0, True})", "1"),
        ("range(3), range(1, 9, 2)", "(range(0, 3), range(1, 9, 2))"),
    ]);
}

#[test]
fn comprehensions_and_scopes() {
    check(&[
        ("[x * x for x in range(4)]", "[0, 1, 4, 9]"),
        (
            "[(a, b) for a in range(4) for b in range(a) if (a + b) % 2]",
            "[(1, 0), (2, 1), (3, 0), (3, 2)]",
        ),
        ("[x for x in range(10) if x % 2 if x > 4]", "[5, 7, 9]"),
        (
            "{k: v for k, v in zip(range(3), 'abc')}",
            "{0: 'a', 1: 'b', 2: 'c'}",
        ),
        ("{x % 3 for x in range(10)}", "{0, 1, 2}"),
        ("[(a, c) for a, (b, c) in [(1, (2, 3))]]", "[(1, 3)]"),
        ("[x for [x, y] in [[1, 2]]]", "[1]"),
        ("sum(x for x in range(101))", "5050"),
        (
            "[[y for y in range(x)] for x in range(3)]",
            "[[], [0], [0, 1]]",
        ),
        // The first iterable is evaluated outside the comprehension's scope.
        ("[[x for x in x] for x in ['ab']]", "[['a', 'b']]"),
        // Closures see the variable, not its value at creation (late binding).
        ("[f() for f in [lambda: i for i in range(3)]]", "[2, 2, 2]"),
        (
            "[g() for g in [lambda i=i: i for i in range(3)]]",
            "[0, 1, 2]",
        ),
        // Comprehension variables do not leak.
        (
            "([x for x in [1]], x)",
            "NameError: name 'x' is not defined (available builtins: abs all any bool dict divmod enumerate filter float frozenset int len list map max min pow range reversed round set sorted str sum tuple zip)",
        ),
        (
            "[x for x, y in [(1, 2, 3)]]",
            "ValueError: too many values to unpack (expected 2)",
        ),
        (
            "[x for x, y in [(1,)]]",
            "ValueError: not enough values to unpack (expected 2, got 1)",
        ),
        (
            "[x for x, y in [1]]",
            "TypeError: cannot unpack non-iterable int object",
        ),
        ("[x for x in 5]", "TypeError: 'int' object is not iterable"),
    ]);
}

#[test]
fn generators_are_lazy_and_shared() {
    check(&[
        ("any(x > 2 for x in range(10 ** 12))", "True"),
        ("all(10 % x for x in [1, 2, 0])", "False"),
        (
            "(lambda g: (sum(g), sum(g)))(x for x in range(4))",
            "(6, 0)",
        ),
        (
            "(lambda g: list(zip(g, g)))(x for x in range(5))",
            "[(0, 1), (2, 3)]",
        ),
        (
            "list(map(lambda a, b: a * b, [1, 2, 3], (4, 5)))",
            "[4, 10]",
        ),
        ("list(filter(None, [0, 1, '', 'a']))", "[1, 'a']"),
        ("(x for x in [])", "<generator object>"),
        (
            "map(abs, []), zip(), enumerate([])",
            "(<map object>, <zip object>, <enumerate object>)",
        ),
    ]);
}

#[test]
fn lambdas() {
    check(&[
        ("(lambda x, y=10: x * y)(3)", "30"),
        ("(lambda x, y=10: x * y)(3, y=2)", "6"),
        ("(lambda x, y: (x, y))(y=1, x=2)", "(2, 1)"),
        ("(lambda: 5)()", "5"),
        ("(lambda x,: x)(1)", "1"),
        (
            "(lambda f, n: f(f, n))(lambda f, n: 1 if n <= 1 else n * f(f, n - 1), 20)",
            "2432902008176640000",
        ),
        ("(lambda x: lambda y: x + y)(1)(2)", "3"),
        ("lambda: 0", "<function <lambda>>"),
        (
            "(lambda x: x)(1, 2)",
            "TypeError: <lambda>() takes 1 positional argument but 2 were given",
        ),
        (
            "(lambda x, y: x)()",
            "TypeError: <lambda>() missing 2 required positional arguments: 'x' and 'y'",
        ),
        (
            "(lambda x: x)(1, x=2)",
            "TypeError: <lambda>() got multiple values for argument 'x'",
        ),
        (
            "(lambda x: x)(y=2)",
            "TypeError: <lambda>() got an unexpected keyword argument 'y'",
        ),
        (
            "(lambda x, x: 0)",
            "SyntaxError: duplicate argument 'x' in function definition",
        ),
        (
            "(lambda x=1, y: 0)",
            "SyntaxError: non-default argument follows default argument",
        ),
        (
            "(lambda *a: a)",
            "Unsupported: lambda parameters other than plain names (with defaults) are not supported",
        ),
        (
            "(lambda f: f(f))(lambda f: f(f))",
            "LimitExceeded: evaluation nested more than 200 levels deep (deep lambda recursion?)",
        ),
        ("5(1)", "TypeError: 'int' object is not callable"),
    ]);
}

#[test]
fn boolean_logic_and_conditionals() {
    check(&[
        ("0 or [] or 'x', 1 and 2 and 0, [] and 1", "('x', 0, [])"),
        ("not [], not 1, not (1 < 2 <= 2)", "(True, False, False)"),
        (
            "1 if True else 2, 1 if False else 2 if True else 3",
            "(1, 2)",
        ),
        ("1 if 0 else 1 / 0", "ZeroDivisionError: division by zero"),
        ("0 and 1 / 0, 1 or 1 / 0", "(0, 1)"),
    ]);
}

#[test]
fn comparisons() {
    check(&[
        ("1 < 2 < 3 > 2 != 5 == 5, 1 < 3 < 2", "(True, False)"),
        (
            "2 ** 53 + 1 == 2.0 ** 53, 2 ** 53 + 1 > 2.0 ** 53",
            "(False, True)",
        ),
        (
            "1 == 1.0 == True, 'a' < 'b' <= 'b', (1, 2) < (1, 2, 0), [2] > [1, 9]",
            "(True, True, True, True)",
        ),
        (
            "[1, 'a'] < [2, 'b'], {1, 2} < {1, 2, 3}, {1} == frozenset({1})",
            "(True, True, True)",
        ),
        (
            "1 in [1.0], 'bc' in 'abc', 'a' in {'a': 3}, 1 not in (2, 3), 3 in range(0, 9, 3)",
            "(True, True, True, True, True)",
        ),
        ("{1} in {frozenset({1})}", "True"),
        (
            "None is None, [] is [], 1 is not None",
            "(True, False, True)",
        ),
        (
            "float('nan') == float('nan'), float('nan') < 1",
            "(False, False)",
        ),
        (
            "1 < 'a'",
            "TypeError: '<' not supported between instances of 'int' and 'str'",
        ),
        (
            "[1, 'a'] < [1, 2]",
            "TypeError: '<' not supported between instances of 'str' and 'int'",
        ),
        (
            "None < None",
            "TypeError: '<' not supported between instances of 'NoneType' and 'NoneType'",
        ),
        (
            "1 in 5",
            "TypeError: argument of type 'int' is not iterable",
        ),
        (
            "1 in 'abc'",
            "TypeError: 'in <string>' requires string as left operand, not int",
        ),
        ("[] in {1: 2}", "TypeError: unhashable type: 'list'"),
    ]);
}

#[test]
fn arithmetic() {
    check(&[
        ("-7 // 2, -7 % 3, 7 // -2, 7 % -2", "(-4, 2, -4, -1)"),
        ("-7.5 // 2, -7.5 % 2, 7.5 % -2", "(-4.0, 0.5, -0.5)"),
        (
            "1 / 3, 2 ** -1, 7 / 7, 0 / -5",
            "(0.3333333333333333, 0.5, 1.0, -0.0)",
        ),
        ("2 ** 100 - 1", "1267650600228229401496703205375"),
        (
            "(2 ** 2000) / (2 ** 1990), 10 ** 20 / 3",
            "(1024.0, 3.333333333333333e+19)",
        ),
        (
            "-2 ** 2, (-2) ** 2, 2 ** 3 ** 2, -2 ** -1",
            "(-4, 4, 512, -0.5)",
        ),
        (
            "1 + 2 * 3 - 4 // 2 % 3, 7 - 2 - 1, 2 * 3 // 4 * 5",
            "(5, 4, 5)",
        ),
        (
            "True + True, True / 2, -True, ~True, +True",
            "(2, 0.5, -1, -2, 1)",
        ),
        (
            "0.1 + 0.2, 1e16, 1e-5, 1.5e300 * 1e10",
            "(0.30000000000000004, 1e+16, 1e-05, inf)",
        ),
        (
            "9223372036854775807 + 1, -(2 ** 63) // -1",
            "(9223372036854775808, 9223372036854775808)",
        ),
        (
            "[1, 2] + [3], (1,) + (2,), 'a' * 3, [0] * 2, 2 * (1,), [1] * -1",
            "([1, 2, 3], (1, 2), 'aaa', [0, 0], (1, 1), [])",
        ),
        ("1 / 0", "ZeroDivisionError: division by zero"),
        (
            "1 // 0",
            "ZeroDivisionError: integer division or modulo by zero",
        ),
        ("1.0 % 0", "ZeroDivisionError: float modulo"),
        (
            "0.0 ** -1",
            "ZeroDivisionError: 0.0 cannot be raised to a negative power",
        ),
        (
            "10.0 ** 400",
            "OverflowError: (34, 'Numerical result out of range')",
        ),
        (
            "float(2 ** 1024)",
            "OverflowError: int too large to convert to float",
        ),
        (
            "2 ** 1024 * 1.0",
            "OverflowError: int too large to convert to float",
        ),
        (
            "(-8) ** 0.5",
            "Unsupported: a negative number raised to a fractional power is complex; complex numbers are not supported",
        ),
        (
            "[1] + (2,)",
            "TypeError: can only concatenate list (not \"tuple\") to list",
        ),
        (
            "'a' + 1",
            "TypeError: can only concatenate str (not \"int\") to str",
        ),
        (
            "[1] * 1.5",
            "TypeError: can't multiply sequence by non-int of type 'float'",
        ),
        (
            "[1] * 2 ** 100",
            "OverflowError: cannot fit 'int' into an index-sized integer",
        ),
        (
            "{1} + {2}",
            "TypeError: unsupported operand type(s) for +: 'set' and 'set'",
        ),
        ("-'a'", "TypeError: bad operand type for unary -: 'str'"),
        (
            "'x' % 5",
            "TypeError: not all arguments converted during string formatting",
        ),
        ("'x' % ()", "'x'"),
        (
            "'%d' % 5",
            "Unsupported: printf-style string formatting (str % ...) is not supported",
        ),
    ]);
}

#[test]
fn bitwise_and_set_operators() {
    check(&[
        (
            "6 & 3, 6 | 3, 6 ^ 3, 1 << 100, -1 >> 3, ~5",
            "(2, 7, 5, 1267650600228229401496703205376, -1, -6)",
        ),
        (
            "-(2 ** 70) >> 3, (2 ** 70) & -(2 ** 65), (2 ** 70) ^ -1",
            "(-147573952589676412928, 1180591620717411303424, -1180591620717411303425)",
        ),
        (
            "True & False, True | False, True ^ True",
            "(False, True, False)",
        ),
        (
            "{1, 2, 3} & {2, 3, 4}, {1, 2} | {3}, {1, 2, 3} - {2}, {1, 2} ^ {2, 3}",
            "({2, 3}, {1, 2, 3}, {1, 3}, {1, 3})",
        ),
        (
            "frozenset({1}) | {2}, {2} | frozenset({1})",
            "(frozenset({1, 2}), {1, 2})",
        ),
        ("{1} & {1.0}, {1.0} & {1}", "({1.0}, {1})"),
        ("{'a': 1} | {'b': 2, 'a': 3}", "{'a': 3, 'b': 2}"),
        ("1 << -1", "ValueError: negative shift count"),
        ("1 << 2 ** 70", "OverflowError: too many digits in integer"),
        (
            "1.5 & 1",
            "TypeError: unsupported operand type(s) for &: 'float' and 'int'",
        ),
    ]);
}

#[test]
fn subscripts_and_slices() {
    check(&[
        (
            "[1, 2, 3][-1], (1, 2)[0], 'abc'[1], range(5)[-2], {'a': 1}['a'], [1, 2][True]",
            "(3, 1, 'b', 3, 1, 2)",
        ),
        (
            "'abcdef'[1:5:2], 'abcdef'[::-2], 'abc'[-10:10], [1, 2, 3][::-1], (1, 2, 3)[5:1:-1]",
            "('bd', 'fdb', 'abc', [3, 2, 1], (3,))",
        ),
        (
            "range(10)[::-1], range(0, 10, 3)[1:], range(10)[2:8:2]",
            "(range(9, -1, -1), range(3, 12, 3), range(2, 8, 2))",
        ),
        ("'héllo'[1], 'héllo'[1:3]", "('é', 'él')"),
        ("{(1, 2): 'x'}[1, 2]", "'x'"),
        ("[1, 2][2]", "IndexError: list index out of range"),
        ("'abc'[5]", "IndexError: string index out of range"),
        ("{}['a']", "KeyError: 'a'"),
        ("{'a': 1}[[1]]", "TypeError: unhashable type: 'list'"),
        (
            "[1, 2][1.0]",
            "TypeError: list indices must be integers or slices, not float",
        ),
        (
            "'abc'['a']",
            "TypeError: string indices must be integers, not 'str'",
        ),
        ("[1, 2][::0]", "ValueError: slice step cannot be zero"),
        ("5[0]", "TypeError: 'int' object is not subscriptable"),
        (
            "[1][1:2, 3]",
            "Unsupported: slices inside tuple subscripts are not supported",
        ),
    ]);
}

#[test]
fn builtins() {
    check(&[
        (
            "abs(-5), abs(-2.5), abs(True), abs(-2 ** 70)",
            "(5, 2.5, 1, 1180591620717411303424)",
        ),
        (
            "all([]), any([]), all([1, 0]), any([0, 'x'])",
            "(True, False, False, True)",
        ),
        ("bool(), bool([0]), bool(range(0))", "(False, True, False)"),
        (
            "dict(a=1), dict([(1, 2), [3, 4]]), dict({1: 2}, x=3), dict(zip('ab', 'cd'))",
            "({'a': 1}, {1: 2, 3: 4}, {1: 2, 'x': 3}, {'a': 'c', 'b': 'd'})",
        ),
        ("divmod(-7, 2), divmod(7.5, -2)", "((-4, 1), (-4.0, -0.5))"),
        (
            "list(enumerate('ab', start=5)), tuple(enumerate('ab'))",
            "([(5, 'a'), (6, 'b')], ((0, 'a'), (1, 'b')))",
        ),
        (
            "float(), float('  1e5 '), float('-inf'), float('1_0.5'), float(True)",
            "(0.0, 100000.0, -inf, 10.5, 1.0)",
        ),
        (
            "frozenset(range(3)), set('aab')",
            "(frozenset({0, 1, 2}), {'a', 'b'})",
        ),
        (
            "int(), int(-2.9), int('  -0x1f  ', 16), int('0b101', 0), int('1_000'), int(True)",
            "(0, -2, -31, 5, 1000, 1)",
        ),
        (
            "len('héllo'), len(range(10 ** 6)), len({}), len((1,))",
            "(5, 1000000, 0, 1)",
        ),
        (
            "list('abc'), list({'a': 1}), list(range(3))",
            "(['a', 'b', 'c'], ['a'], [0, 1, 2])",
        ),
        (
            "max(x * x for x in range(-3, 4)), max('hello'), max(1, 2, 3, key=lambda v: -v)",
            "(9, 'o', 1)",
        ),
        (
            "min([3, 1, 2]), min([], default=None), min([-3, 3], key=abs), max([-3, 3], key=abs)",
            "(1, None, -3, -3)",
        ),
        (
            "pow(2, 10), pow(3, -1, 7), pow(2, 10, -7), pow(2, 0.5)",
            "(1024, 5, -5, 1.4142135623730951)",
        ),
        ("list(range(5, 0, -2)), list(range(-2))", "([5, 3, 1], [])"),
        (
            "list(reversed([1, 2])), list(reversed('ab')), list(reversed(range(3))), list(reversed({'a': 1, 'b': 2}))",
            "([2, 1], ['b', 'a'], [2, 1, 0], ['b', 'a'])",
        ),
        (
            "round(2.5), round(3.5), round(2.675, 2), round(1234.5678, -2), round(15, -1), round(25, -1)",
            "(2, 4, 2.67, 1200.0, 20, 20)",
        ),
        (
            "sorted({3, 1, 2}, reverse=True), sorted(['bb', 'a', 'ccc'], key=len), sorted('cab')",
            "([3, 2, 1], ['a', 'bb', 'ccc'], ['a', 'b', 'c'])",
        ),
        // Stable, also in reverse.
        (
            "sorted([(1, 'b'), (0, 'z'), (1, 'a')], key=lambda p: p[0], reverse=True)",
            "[(1, 'b'), (1, 'a'), (0, 'z')]",
        ),
        (
            "sorted(range(100), key=lambda v: v % 3)[:4], sorted(range(100), key=lambda v: -(v % 2))[-2:]",
            "([0, 3, 6, 9], [96, 98])",
        ),
        (
            "str(), str(1.0), str('x'), str([1, 'a', None]), str({1: (2,)})",
            "('', '1.0', 'x', \"[1, 'a', None]\", '{1: (2,)}')",
        ),
        (
            "sum([1, 2, 3]), sum([0.1] * 10), sum([[1], [2]], []), sum(range(4), start=10)",
            "(6, 1.0, [1, 2], 16)",
        ),
        ("tuple([1, 2]), tuple()", "((1, 2), ())"),
        (
            "list(zip('abc', range(10), [1, 2])), list(zip('ab', 'cd', strict=True))",
            "([('a', 0, 1), ('b', 1, 2)], [('a', 'c'), ('b', 'd')])",
        ),
        ("len, int", "(<built-in function len>, <class 'int'>)"),
        ("sorted([3, 1, 2], key=None, reverse=False)", "[1, 2, 3]"),
    ]);
}

#[test]
fn builtin_errors() {
    check(&[
        ("len(5)", "TypeError: object of type 'int' has no len()"),
        (
            "len()",
            "TypeError: len() takes exactly 1 argument (0 given)",
        ),
        (
            "len([], x=1)",
            "TypeError: 'x' is an invalid keyword argument for len()",
        ),
        (
            "sorted([1], foo=1)",
            "TypeError: 'foo' is an invalid keyword argument for sorted()",
        ),
        (
            "sorted([1, 'a'])",
            "TypeError: '<' not supported between instances of 'str' and 'int'",
        ),
        ("max([])", "ValueError: max() arg is an empty sequence"),
        (
            "max(1, 2, default=0)",
            "TypeError: Cannot specify a default for max() with multiple positional arguments",
        ),
        (
            "sum(['a'], '')",
            "TypeError: sum() can't sum strings [use ''.join(seq) instead]",
        ),
        (
            "int('12a')",
            "ValueError: invalid literal for int() with base 10: '12a'",
        ),
        (
            "int('010', 0)",
            "ValueError: invalid literal for int() with base 0: '010'",
        ),
        (
            "int('9' * 4301)",
            "ValueError: Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit",
        ),
        (
            "str(10 ** 4300)",
            "ValueError: Exceeds the limit (4300) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit",
        ),
        (
            "int(float('inf'))",
            "OverflowError: cannot convert float infinity to integer",
        ),
        (
            "float('abc')",
            "ValueError: could not convert string to float: 'abc'",
        ),
        (
            "pow(2, -1, 4)",
            "ValueError: base is not invertible for the given modulus",
        ),
        (
            "pow(2.0, 3, 5)",
            "TypeError: pow() 3rd argument not allowed unless all arguments are integers",
        ),
        (
            "range(1, 2, 0)",
            "ValueError: range() arg 3 must not be zero",
        ),
        (
            "range(1.5)",
            "TypeError: 'float' object cannot be interpreted as an integer",
        ),
        (
            "range(2 ** 70)",
            "Unsupported: ranges beyond 64-bit bounds are not supported",
        ),
        (
            "reversed({1, 2})",
            "TypeError: 'set' object is not reversible",
        ),
        (
            "list(zip('ab', 'c', strict=True))",
            "ValueError: zip() argument 2 is shorter than argument 1",
        ),
        (
            "dict([(1, 2, 3)])",
            "ValueError: dictionary update sequence element #0 has length 3; 2 is required",
        ),
        (
            "dict([1])",
            "TypeError: cannot convert dictionary update sequence element #0 to a sequence",
        ),
        ("{**[1]}", "TypeError: 'list' object is not a mapping"),
        (
            "round('a')",
            "TypeError: type str doesn't define __round__ method",
        ),
        (
            "round(1.5e308, -308)",
            "OverflowError: rounded value too large to represent",
        ),
        (
            "map(abs)",
            "TypeError: map() must have at least two arguments.",
        ),
        ("{[1]}", "TypeError: unhashable type: 'list'"),
        ("{(1, [2])}", "TypeError: unhashable type: 'list'"),
    ]);
}

#[test]
fn set_iteration_order_is_cpythons() {
    check(&[
        ("list({5, 3, 1, 100, 64, 7, 9})", "[64, 1, 3, 100, 5, 7, 9]"),
        (
            "[x for x in {5, 3, 1, 100, 64, 7, 9}]",
            "[64, 1, 3, 100, 5, 7, 9]",
        ),
        (
            "list({i * 7 % 50 for i in range(9)})",
            "[0, 35, 6, 7, 42, 14, 49, 21, 28]",
        ),
        ("{0x1a, 2, 0x18, 40}", "{24, 2, 40, 26}"),
        (
            "{(i, i + 1) for i in range(1, 10) if i % 3 != 0}",
            "{(1, 2), (2, 3), (4, 5), (8, 9), (5, 6), (7, 8)}",
        ),
        (
            "{-1, -2, 2 ** 61 - 1, 2 ** 64, 0.5, 1.5, -0.5}",
            "{2305843009213693951, 0.5, 1.5, -0.5, -2, 18446744073709551616, -1}",
        ),
    ]);
}

#[test]
fn syntax_errors_are_located() {
    let e = eval("(1 +\n  * 2)").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert_eq!(
        e.to_string(),
        "SyntaxError: invalid syntax at line 2, column 3:\n      * 2)\n      ^"
    );
    for (src, message) in [
        ("", "empty expression"),
        ("1 +", "unexpected end of expression"),
        ("1 2", "invalid syntax"),
        (
            "1\n2",
            "unexpected line break: the payload must be a single expression (wrap multi-line expressions in brackets)",
        ),
        (
            "x = 1",
            "assignments are not allowed: the payload must be a single expression",
        ),
        (
            "x += 1",
            "assignments are not allowed: the payload must be a single expression",
        ),
        (
            "import os",
            "'import' is not allowed: the payload must be a single expression",
        ),
        (
            "1; 2",
            "';' is not allowed: the payload must be a single expression",
        ),
        ("1 if 2", "expected 'else' after 'if' expression"),
        ("{1: 2, 3}", "':' expected after dictionary key"),
        (
            "f(x for x in y, 1)",
            "Generator expression must be parenthesized",
        ),
        ("f(a=1, 2)", "positional argument follows keyword argument"),
        ("f(a=1, a=2)", "keyword argument repeated: a"),
        ("*a", "can't use starred expression here"),
        (
            "[*a for a in b]",
            "iterable unpacking cannot be used in comprehension",
        ),
        ("[x for 1 in y]", "invalid loop target"),
    ] {
        let e = eval(src).unwrap_err();
        assert_eq!(
            (e.kind(), e.message()),
            (ErrorKind::Syntax, message),
            "{src:?}"
        );
    }
    assert!(eval("(1 +\n 2), [1,\n 2,\n], 1 + \\\n 2, (1 # c\n)").is_ok());
    assert_eq!(ev("  1 + 2\n"), "3");
}

#[test]
fn unsafe_and_unsupported_constructs_are_refused() {
    for (src, kind, message) in [
        (
            "x.y",
            ErrorKind::Unsupported,
            "attribute access (.y) is not allowed",
        ),
        (
            "().__class__",
            ErrorKind::Unsupported,
            "attribute access (.__class__) is not allowed",
        ),
        (
            "__import__('os')",
            ErrorKind::Unsupported,
            "names starting with '__' are not allowed (__import__)",
        ),
        (
            "[__x for __x in []]",
            ErrorKind::Unsupported,
            "names starting with '__' are not allowed (__x)",
        ),
        (
            "(a := 1)",
            ErrorKind::Unsupported,
            "assignment expressions (:=) are not supported",
        ),
        (
            "f'{x}'",
            ErrorKind::Unsupported,
            "f-strings are not supported",
        ),
        (
            "b'x'",
            ErrorKind::Unsupported,
            "bytes literals are not supported",
        ),
        (
            "1j",
            ErrorKind::Unsupported,
            "complex numbers are not supported",
        ),
        (
            "...",
            ErrorKind::Unsupported,
            "Ellipsis (...) is not supported",
        ),
        (
            "f(**d)",
            ErrorKind::Unsupported,
            "**kwargs in calls are not supported",
        ),
        (
            "[1 for *a in b]",
            ErrorKind::Unsupported,
            "starred loop targets are not supported",
        ),
    ] {
        let e = eval(src).unwrap_err();
        assert_eq!((e.kind(), e.message()), (kind, message), "{src:?}");
        assert!(e.location().is_some(), "{src:?}");
    }
    for name in [
        "open", "print", "eval", "exec", "getattr", "type", "globals",
    ] {
        let e = eval(&format!("{name}('x')")).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Name);
        assert!(
            e.message()
                .starts_with(&format!("name '{name}' is not defined"))
        );
    }
    // Unknown names are only an error when evaluated, as in CPython.
    assert_eq!(ev("1 if True else print"), "1");
}

#[test]
fn limits() {
    let limits = |f: fn(&mut EvalLimits)| {
        let mut l = EvalLimits::default();
        f(&mut l);
        l
    };
    let e = |src: &str, l: &EvalLimits| eval_with(src, l).unwrap_err();
    let steps = limits(|l| l.max_steps = 10_000);
    assert_eq!(
        e("sum(range(10 ** 6))", &steps).message(),
        "evaluation exceeded 10000 steps"
    );
    assert!(eval_with("sum(range(1000))", &steps).is_ok());
    let elements = limits(|l| l.max_elements = 1000);
    assert_eq!(
        e("[0] * 2000", &elements).message(),
        "evaluation created more than 1000 container items or string characters"
    );
    assert_eq!(e("list(range(2000))", &elements).kind(), ErrorKind::Limit);
    assert_eq!(e("'ab' * 600", &elements).kind(), ErrorKind::Limit);
    let bits = limits(|l| l.max_int_bits = 1000);
    assert_eq!(
        e("2 ** 1000", &bits).message(),
        "integer result would have about 1001 bits (limit 1000)"
    );
    assert_eq!(e("(2 ** 999) * 4", &bits).kind(), ErrorKind::Limit);
    assert_eq!(
        e("2 ** 2 ** 100", &bits).message(),
        "integer result would have more than 2^40 bits (limit 1000)"
    );
    assert_eq!(e("1 << 1000", &bits).kind(), ErrorKind::Limit);
    assert_eq!(e("int('1' * 400)", &bits).kind(), ErrorKind::Limit);
    assert_eq!(
        e(&format!("0x{}", "f".repeat(300)), &bits).kind(),
        ErrorKind::Limit
    );
    assert!(eval_with("2 ** 999", &bits).is_ok());
    let depth = limits(|l| l.max_depth = 20);
    let nested = format!("{}1{}", "(".repeat(30), ")".repeat(30));
    assert_eq!(
        e(&nested, &depth).message(),
        "expression nested too deeply (limit 20)"
    );
    assert_eq!(
        e(&format!("{}1", "-".repeat(30)), &depth).kind(),
        ErrorKind::Limit
    );
    assert_eq!(
        e(
            "(lambda f: f(f, 30))(lambda f, n: [f(f, n - 1)] if n else [])",
            &depth
        )
        .kind(),
        ErrorKind::Limit
    );
    // Values nest deeper than any single expression through repeated calls.
    let e2 = e("(lambda f: f(f(f(f(0)))))(lambda x: [[[[[[x]]]]]])", &depth);
    assert_eq!(e2.message(), "containers nested more than 20 levels deep");
    // The default depth admits CPython's own limit of 200 nested brackets.
    let deep = format!("{}1{}", "[".repeat(190), "]".repeat(190));
    assert!(eval(&deep).is_ok());
    // Chained and nested calls, subscripts and lambdas count as nesting.
    for src in [
        format!("f{}", "()".repeat(100_000)),
        format!("x{}", "[0]".repeat(100_000)),
        format!("{}0{}", "f(".repeat(100_000), ")".repeat(100_000)),
        format!("{}0", "lambda x=".repeat(100_000)),
        format!("{}0", "lambda: ".repeat(100_000)),
        format!(
            "{}0{}",
            "1 if 1 else (".repeat(100_000),
            ")".repeat(100_000)
        ),
        format!("{}1", "not ".repeat(100_000)),
        format!("{}1", "2 ** ".repeat(100_000)),
        format!("{}x{}", "[x for x in ".repeat(50_000), "]".repeat(50_000)),
    ] {
        assert_eq!(
            eval(&src).unwrap_err().kind(),
            ErrorKind::Limit,
            "{}",
            &src[..20]
        );
    }
    // Long flat chains do not nest.
    assert_eq!(ev(&vec!["1"; 5000].join(" + ")), "5000");
}

#[test]
fn value_api() {
    let v = eval("({(1, 2), (2, 3)}, [True, 2 ** 70, 1.5, 'x', None], {'n': 3})").unwrap();
    let [pairs, list, dict] = v.as_tuple().unwrap() else {
        panic!("not a triple")
    };
    assert_eq!(v.type_name(), "tuple");
    let set = pairs.as_set().unwrap();
    assert_eq!((set.len(), set.is_empty()), (2, false));
    assert!(set.contains(&Value::tuple([Value::from(1), Value::from(2)])));
    assert!(!set.contains(&Value::list([])));
    assert_eq!(set.iter().count(), 2);
    let items = list.as_list().unwrap();
    assert_eq!(items[0].as_bool(), Some(true));
    assert_eq!(items[0].as_i64(), None);
    assert_eq!(items[0], Value::from(1));
    assert_eq!(items[1].as_i64(), None);
    assert_eq!(items[1].as_bigint(), Some(BigInt::from(1u128 << 70)));
    assert_eq!(items[2].as_f64(), Some(1.5));
    assert_eq!(items[3].as_str(), Some("x"));
    assert!(items[4].is_none());
    assert_eq!(list.as_sequence().map(<[Value]>::len), Some(5));
    assert_eq!(list.as_tuple(), None);
    let d = dict.as_dict().unwrap();
    assert_eq!(d.get("n"), Some(&Value::from(3)));
    assert_eq!(d.keys().count(), 1);
    assert_eq!(
        d.iter().next().map(|(k, _)| k.to_string()),
        Some("'n'".into())
    );
    assert!(Value::from(0.5).truthy() && !Value::from("").truthy());
    assert_eq!(Value::from(usize::MAX).to_string(), "18446744073709551615");
    assert_eq!(Value::from(String::from("a'b")).to_string(), "\"a'b\"");
    assert_eq!(format!("{:?}", Value::none()), "None");
    assert_eq!(Value::from(BigInt::from(7)).as_i64(), Some(7));
    // Calling lambdas and builtins from Rust.
    let rule = eval("lambda team: sum(1 for x in team if x in {1, 2, 3}) % 2 == 1").unwrap();
    assert!(rule.is_callable());
    let team = Value::list([1, 2, 5].map(Value::from));
    assert_eq!(
        rule.call(std::slice::from_ref(&team)).unwrap().as_bool(),
        Some(false)
    );
    let e = rule.call(&[]).unwrap_err();
    assert_eq!(
        e.message(),
        "<lambda>() missing 1 required positional argument: 'team'"
    );
    let e = rule.call(&[Value::from(3)]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type);
    assert_eq!(e.location().map(|l| l.column), Some(29));
    let len = eval("len").unwrap();
    assert_eq!(len.call(&[team]).unwrap(), Value::from(3));
    assert!(Value::from(1).call(&[]).is_err());
    // A lambda from one witness called inside another evaluation keeps its source.
    let w = eval("{'f': lambda x: 1 // x}").unwrap();
    let f = w.as_dict().unwrap().get("f").unwrap().clone();
    assert_eq!(
        f.call(&[Value::from(0)])
            .unwrap_err()
            .location()
            .unwrap()
            .column,
        19
    );
}
