package org.jtorch.fx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jtorch.TorchException;

/**
 * An integer that depends on the sizes of a graph's dynamic dimensions ({@code torch.SymInt}): a polynomial with
 * integer coefficients over the graph's symbols {@code s0, s1, ...}, each symbol appearing at most once in a term
 * ({@code s0*s1 - 1}, {@code 3*s0}). That covers what shape code computes from sizes (products for views and
 * flattening, offsets for slicing, counts for factories); a value the trace computed otherwise is not made symbolic
 * (see the compile front end, which then specializes the graph to the sizes it saw).
 *
 * <p>A graph keeps symbolic integers as arguments where the op takes an {@code int}; {@link SymIntArray} holds an
 * {@code int[]} with symbolic elements. {@link GraphModule} evaluates them on each call from the sizes of its inputs
 * (see {@link Graph#symbols()}). Immutable.
 */
public final class SymInt {
    /** term: bit set of the symbols multiplied (bit i for {@code si}) → coefficient; zero coefficients are dropped. */
    private final TreeMap<Long, Long> terms;

    private SymInt(TreeMap<Long, Long> terms) {
        terms.values().removeIf(c -> c == 0);
        this.terms = terms;
    }

    /** The symbol {@code s<index>}. */
    public static SymInt symbol(int index) {
        if (index < 0 || index > 62) throw new TorchException("SymInt: symbol index " + index + " is out of [0, 62]");
        return of(Map.of(1L << index, 1L));
    }

    /** The constant {@code value}. */
    public static SymInt constant(long value) {
        return of(Map.of(0L, value));
    }

    /**
     * The polynomial with these terms: each key a bit set of symbols (bit {@code i} for {@code si}, 0 for the constant
     * term), each value its coefficient.
     */
    public static SymInt of(Map<Long, Long> terms) {
        return new SymInt(new TreeMap<>(terms));
    }

    /** Whether no symbol occurs (the value is {@link #constantValue()}). */
    public boolean isConstant() {
        return terms.isEmpty() || terms.size() == 1 && terms.containsKey(0L);
    }

    /** The value of a constant; throws when a symbol occurs. */
    public long constantValue() {
        if (!isConstant()) throw new TorchException("SymInt: " + this + " is not a constant");
        return terms.getOrDefault(0L, 0L);
    }

    /** The value for the given symbol values ({@code symbolValues[i]} for {@code si}). */
    public long eval(long[] symbolValues) {
        try {
            long sum = 0;
            for (var term : terms.entrySet()) {
                long product = term.getValue();
                long mask = term.getKey();
                for (int i = 0; mask != 0; i++, mask >>>= 1) {
                    if ((mask & 1) == 0) continue;
                    if (i >= symbolValues.length) {
                        throw new TorchException("SymInt: " + this + " needs s" + i + ", but only "
                                + symbolValues.length + " symbol values were given");
                    }
                    product = Math.multiplyExact(product, symbolValues[i]);
                }
                sum = Math.addExact(sum, product);
            }
            return sum;
        } catch (ArithmeticException e) {
            throw new TorchException(
                    "SymInt: " + this + " overflows int64 for the sizes " + Arrays.toString(symbolValues));
        }
    }

    /**
     * The terms: each key a bit set of the symbols multiplied (bit {@code i} for {@code si}, 0 for the constant term),
     * each value its coefficient, none zero; ordered by key.
     */
    public Map<Long, Long> terms() {
        return java.util.Collections.unmodifiableMap(terms);
    }

    /** The symbols that occur, as a bit set (bit {@code i} for {@code si}). */
    public long symbols() {
        long all = 0;
        for (long mask : terms.keySet()) all |= mask;
        return all;
    }

    /**
     * This polynomial with symbol {@code si} renamed {@code s<newIndex[i]>} (how a graph that uses only some of a
     * compilation's symbols numbers its own).
     */
    public SymInt renumbered(int[] newIndex) {
        TreeMap<Long, Long> out = new TreeMap<>();
        for (var term : terms.entrySet()) {
            long mask = 0;
            long old = term.getKey();
            for (int i = 0; old != 0; i++, old >>>= 1) {
                if ((old & 1) == 0) continue;
                if (i >= newIndex.length || newIndex[i] < 0) {
                    throw new TorchException("SymInt.renumbered: no new index for s" + i);
                }
                mask |= 1L << newIndex[i];
            }
            out.merge(mask, term.getValue(), Math::addExact);
        }
        return new SymInt(out);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SymInt other && terms.equals(other.terms);
    }

    @Override
    public int hashCode() {
        return terms.hashCode();
    }

    /** As sympy prints it: higher-degree terms first, {@code s0*s1 + 2*s0 - 1}. */
    @Override
    public String toString() {
        if (terms.isEmpty()) return "0";
        List<Map.Entry<Long, Long>> ordered = new ArrayList<>(terms.entrySet());
        ordered.sort((a, b) -> a.getKey().equals(b.getKey())
                ? 0
                : Long.bitCount(a.getKey()) != Long.bitCount(b.getKey())
                        ? Long.bitCount(b.getKey()) - Long.bitCount(a.getKey())
                        : Long.compareUnsigned(a.getKey(), b.getKey()));
        StringBuilder sb = new StringBuilder();
        for (var term : ordered) {
            long c = term.getValue();
            String monomial = monomial(term.getKey());
            if (sb.isEmpty()) sb.append(c < 0 ? "-" : "");
            else sb.append(c < 0 ? " - " : " + ");
            long abs = Math.abs(c);
            if (monomial.isEmpty()) sb.append(abs);
            else sb.append(abs == 1 ? "" : abs + "*").append(monomial);
        }
        return sb.toString();
    }

    private static String monomial(long mask) {
        List<String> factors = new ArrayList<>();
        for (int i = 0; mask != 0; i++, mask >>>= 1) if ((mask & 1) != 0) factors.add("s" + i);
        return String.join("*", factors);
    }
}
