package org.jtorch.onnx;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jtorch.fx.SymInt;

/**
 * Arithmetic on sizes that may depend on a model's dynamic dimensions ({@link SymInt} polynomials), as the graph passes
 * need it to prove two shapes equal: products, and exact quotients (the size a reshape's {@code -1} stands for). A
 * result outside what a {@link SymInt} holds (a symbol squared, a remainder, an overflow) is null: unknown.
 */
final class SymbolicDims {
    private SymbolicDims() {}

    static SymInt of(long value) {
        return SymInt.constant(value);
    }

    /** {@code a * b}, or null. */
    static SymInt times(SymInt a, SymInt b) {
        if (a == null || b == null) return null;
        TreeMap<Long, Long> out = new TreeMap<>();
        try {
            for (var x : a.terms().entrySet()) {
                for (var y : b.terms().entrySet()) {
                    if ((x.getKey() & y.getKey()) != 0) return null;
                    out.merge(x.getKey() | y.getKey(), Math.multiplyExact(x.getValue(), y.getValue()), Math::addExact);
                }
            }
        } catch (ArithmeticException e) {
            return null;
        }
        return SymInt.of(out);
    }

    /** The product of {@code dims}, or null when one is unknown. */
    static SymInt product(List<SymInt> dims) {
        SymInt p = of(1);
        for (SymInt d : dims) p = times(p, d);
        return p;
    }

    /** {@code a / b} when {@code b} is one term that divides every term of {@code a} exactly, else null. */
    static SymInt quotient(SymInt a, SymInt b) {
        if (a == null || b == null || b.terms().size() != 1) return null;
        Map.Entry<Long, Long> divisor = b.terms().entrySet().iterator().next();
        long mask = divisor.getKey(), coefficient = divisor.getValue();
        if (coefficient == 0) return null;
        TreeMap<Long, Long> out = new TreeMap<>();
        for (var t : a.terms().entrySet()) {
            if ((t.getKey() & mask) != mask || t.getValue() % coefficient != 0) return null;
            out.put(t.getKey() & ~mask, t.getValue() / coefficient);
        }
        return SymInt.of(out);
    }

    /** Whether {@code d} is known and has no symbol. */
    static boolean isStatic(SymInt d) {
        return d != null && d.isConstant();
    }

    /** Whether {@code d} is the constant {@code value}. */
    static boolean is(SymInt d, long value) {
        return isStatic(d) && d.constantValue() == value;
    }

    /**
     * Sizes as the constant shape of an ONNX {@code Reshape}: static sizes as they are and the one dynamic size, if
     * any, as -1 (the reshape computes it from the element count); null when two sizes are dynamic or one is unknown,
     * or a size is 0 (which a reshape would read as "copy the input's size").
     */
    static long[] reshapeTarget(List<SymInt> sizes) {
        long[] target = new long[sizes.size()];
        boolean dynamic = false;
        for (int i = 0; i < target.length; i++) {
            SymInt d = sizes.get(i);
            if (d == null || is(d, 0)) return null;
            if (d.isConstant()) {
                target[i] = d.constantValue();
            } else {
                if (dynamic) return null;
                dynamic = true;
                target[i] = -1;
            }
        }
        return target;
    }
}
