package org.jtorch.export;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jtorch.TorchException;
import org.jtorch.fx.SymInt;

/**
 * Symbolic sizes as the export schema writes them: sympy's {@code srepr} of an expression, {@code Mul(Integer(4),
 * Symbol('s28', positive=True, integer=True))}. Reading covers the polynomials a graph's {@link SymInt}s are
 * ({@code Symbol}, {@code Integer}, {@code Add}, {@code Mul}, {@code Pow} with a natural exponent over one symbol that
 * appears once per term); anything else ({@code FloorDiv}, {@code Mod}...) is refused naming the expression. Writing
 * gives the same form, each symbol {@code s<i>} declared positive and integer as PyTorch's shape environment declares
 * its sizes.
 */
final class SymExprs {
    private SymExprs() {}

    /** Resolves a symbol's name to its index in the graph ({@code si}), or -1 when the graph has no such symbol. */
    interface Symbols {
        int indexOf(String name);
    }

    /** Parses {@code expr}; {@code what} names it in errors. */
    static SymInt parse(String expr, Symbols symbols, String what) {
        Parser p = new Parser(expr, symbols, what);
        TreeMap<Long, Long> terms = p.expression(0);
        p.skipSpace();
        if (p.pos != expr.length()) throw p.error("unexpected text");
        return SymInt.of(terms);
    }

    /** The name of the bare symbol {@code expr} is ({@code Symbol('s28', ...)}), or null if it is anything else. */
    static String bareSymbol(String expr) {
        String s = expr.strip();
        if (!s.startsWith("Symbol(") || !s.endsWith(")")) return null;
        int q1 = s.indexOf('\'');
        int q2 = q1 < 0 ? -1 : s.indexOf('\'', q1 + 1);
        if (q2 < 0 || s.indexOf(')') != s.length() - 1) return null;
        return s.substring(q1 + 1, q2);
    }

    /** {@code srepr} of {@code value}. */
    static String srepr(SymInt value) {
        List<String> terms = new ArrayList<>();
        for (var term : value.terms().entrySet()) {
            List<String> factors = new ArrayList<>();
            long c = term.getValue();
            long mask = term.getKey();
            if (c != 1 || mask == 0) factors.add("Integer(" + c + ")");
            for (int i = 0; mask != 0; i++, mask >>>= 1) {
                if ((mask & 1) != 0) factors.add(symbol(i));
            }
            terms.add(factors.size() == 1 ? factors.getFirst() : "Mul(" + String.join(", ", factors) + ")");
        }
        if (terms.isEmpty()) return "Integer(0)";
        return terms.size() == 1 ? terms.getFirst() : "Add(" + String.join(", ", terms) + ")";
    }

    /** {@code srepr} of the symbol {@code s<index>}. */
    static String symbol(int index) {
        return "Symbol('s" + index + "', positive=True, integer=True)";
    }

    /** A recursive-descent reader of the srepr subset above, with bounded nesting. */
    private static final class Parser {
        private static final int MAX_DEPTH = 64;
        private final String text;
        private final Symbols symbols;
        private final String what;
        private int pos;

        Parser(String text, Symbols symbols, String what) {
            this.text = text;
            this.symbols = symbols;
            this.what = what;
        }

        TreeMap<Long, Long> expression(int depth) {
            if (depth > MAX_DEPTH) throw error("nested too deeply");
            skipSpace();
            int start = pos;
            while (pos < text.length() && Character.isLetter(text.charAt(pos))) pos++;
            String head = text.substring(start, pos);
            expect('(');
            TreeMap<Long, Long> result =
                    switch (head) {
                        case "Integer" -> constant(integer());
                        case "Symbol" -> symbolTerm();
                        case "Add" -> {
                            TreeMap<Long, Long> sum = constant(0);
                            for (TreeMap<Long, Long> t : arguments(depth)) sum = add(sum, t);
                            yield sum;
                        }
                        case "Mul" -> {
                            TreeMap<Long, Long> product = constant(1);
                            for (TreeMap<Long, Long> t : arguments(depth)) product = multiply(product, t);
                            yield product;
                        }
                        case "Pow" -> {
                            TreeMap<Long, Long> base = expression(depth + 1);
                            skipSpace();
                            expect(',');
                            TreeMap<Long, Long> exponent = expression(depth + 1);
                            skipSpace();
                            if (!isConstant(exponent) || exponent.getOrDefault(0L, 0L) < 0) {
                                throw error("Pow with an exponent that is not a natural number");
                            }
                            TreeMap<Long, Long> power = constant(1);
                            for (long k = exponent.getOrDefault(0L, 0L); k > 0; k--) power = multiply(power, base);
                            yield power;
                        }
                        default ->
                            throw error("unsupported symbolic expression '" + head + "' (JTorch's symbolic sizes are"
                                    + " polynomials in the input sizes)");
                    };
            if (!head.equals("Add") && !head.equals("Mul")) expect(')');
            return result;
        }

        private List<TreeMap<Long, Long>> arguments(int depth) {
            List<TreeMap<Long, Long>> out = new ArrayList<>();
            while (true) {
                out.add(expression(depth + 1));
                skipSpace();
                char c = next();
                if (c == ')') return out;
                if (c != ',') throw error("expected ',' or ')'");
            }
        }

        private TreeMap<Long, Long> symbolTerm() {
            skipSpace();
            expect('\'');
            int start = pos;
            while (pos < text.length() && text.charAt(pos) != '\'') pos++;
            String name = text.substring(start, pos);
            expect('\'');
            // the assumptions (positive=True, integer=True) follow: sizes are integers either way
            while (pos < text.length() && text.charAt(pos) != ')') pos++;
            int index = symbols.indexOf(name);
            if (index < 0) throw error("symbol " + name + " is not the size of any input of the program");
            if (index > 62) throw error("more than 63 symbols");
            TreeMap<Long, Long> t = new TreeMap<>();
            t.put(1L << index, 1L);
            return t;
        }

        private long integer() {
            skipSpace();
            int start = pos;
            if (pos < text.length() && text.charAt(pos) == '-') pos++;
            while (pos < text.length() && Character.isDigit(text.charAt(pos))) pos++;
            try {
                return Long.parseLong(text.substring(start, pos));
            } catch (NumberFormatException e) {
                throw error("bad integer");
            }
        }

        private TreeMap<Long, Long> add(TreeMap<Long, Long> a, TreeMap<Long, Long> b) {
            TreeMap<Long, Long> out = new TreeMap<>(a);
            for (var e : b.entrySet()) out.merge(e.getKey(), e.getValue(), this::sum);
            out.values().removeIf(c -> c == 0);
            return out;
        }

        private TreeMap<Long, Long> multiply(TreeMap<Long, Long> a, TreeMap<Long, Long> b) {
            TreeMap<Long, Long> out = new TreeMap<>();
            for (var x : a.entrySet()) {
                for (var y : b.entrySet()) {
                    if ((x.getKey() & y.getKey()) != 0) throw error("a symbol squared (not a JTorch symbolic size)");
                    long c;
                    try {
                        c = Math.multiplyExact(x.getValue(), y.getValue());
                    } catch (ArithmeticException e) {
                        throw error("coefficient overflows 64 bits");
                    }
                    out.merge(x.getKey() | y.getKey(), c, this::sum);
                }
            }
            out.values().removeIf(c -> c == 0);
            return out;
        }

        private long sum(long a, long b) {
            try {
                return Math.addExact(a, b);
            } catch (ArithmeticException e) {
                throw error("coefficient overflows 64 bits");
            }
        }

        private static TreeMap<Long, Long> constant(long c) {
            TreeMap<Long, Long> t = new TreeMap<>();
            if (c != 0) t.put(0L, c);
            return t;
        }

        private static boolean isConstant(Map<Long, Long> t) {
            return t.isEmpty() || t.size() == 1 && t.containsKey(0L);
        }

        void skipSpace() {
            while (pos < text.length() && text.charAt(pos) == ' ') pos++;
        }

        private char next() {
            if (pos >= text.length()) throw error("unexpected end");
            return text.charAt(pos++);
        }

        private void expect(char c) {
            skipSpace();
            if (next() != c) throw error("expected '" + c + "'");
        }

        TorchException error(String detail) {
            return new TorchException(what + ": symbolic expression '" + text + "' at offset " + pos + ": " + detail);
        }
    }
}
