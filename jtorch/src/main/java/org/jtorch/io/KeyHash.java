package org.jtorch.io;

import java.math.BigInteger;
import java.security.SecureRandom;

/**
 * Hashes of pickled dict keys and set items with a secret seed drawn once per process, as Python's string hashing is
 * randomised. {@code java.util.HashMap} degrades to a linear scan for keys whose hashes collide and which are not
 * {@link Comparable} (tuples, complex numbers, globals); with a fixed polynomial hash a file can hold thousands of such
 * keys with one hash and make its loading quadratic. Without the seed, colliding keys cannot be chosen.
 *
 * <p>Each value is hashed from its content (every char of a string, all 64 bits of a number), never from the fixed
 * {@code hashCode} of its parts, so colliding strings or longs cannot make colliding tuples either. Values that are
 * equal under {@code equals} hash equally; a type tag keeps {@code 1L} and {@code 1.0} apart, as {@code equals} does.
 */
final class KeyHash {
    private static final long SEED = new SecureRandom().nextLong();

    private KeyHash() {}

    /** The seeded hash of a hashable scalar ({@link PyTuple#isHashableScalar}) or tuple. */
    static long of(Object o) {
        return switch (o) {
            case null -> step(SEED, 1);
            case String s -> string(s);
            case Long l -> step(step(SEED, 2), l);
            case Integer i -> step(step(SEED, 3), i);
            case Double d -> step(step(SEED, 4), Double.doubleToLongBits(d));
            case Float f -> step(step(SEED, 5), Float.floatToIntBits(f));
            case Boolean b -> step(SEED, b ? 6 : 7);
            case BigInteger b -> bytes(step(SEED, 8), b.toByteArray());
            case PyComplex c ->
                step(step(step(SEED, 9), Double.doubleToLongBits(c.real())), Double.doubleToLongBits(c.imag()));
            case PyGlobal g -> step(step(step(SEED, 10), string(g.module())), string(g.name()));
            case PyTuple t -> t.seededHash();
            // dtypes and devices: a small fixed set of values, which cannot be made to collide in numbers
            default -> step(step(SEED, 11), o.hashCode());
        };
    }

    /** Folds one more item into a tuple's hash, which starts at {@link #tupleStart}. */
    static long combine(long h, long item) {
        return step(h, item);
    }

    /** The hash of an empty tuple of {@code size} items, before its items are combined. */
    static long tupleStart(int size) {
        return step(step(SEED, 12), size);
    }

    /** A 32-bit {@code hashCode} from a 64-bit hash. */
    static int fold(long h) {
        return (int) (h ^ (h >>> 32));
    }

    private static long string(String s) {
        long h = step(step(SEED, 13), s.length());
        for (int i = 0; i < s.length(); i++) h = step(h, s.charAt(i));
        return h;
    }

    private static long bytes(long h, byte[] b) {
        for (byte x : b) h = step(h, x);
        return step(h, b.length);
    }

    /**
     * One keyed step: the state, which depends on the secret seed, absorbs {@code v} through MurmurHash3's 64-bit
     * finaliser, a bijection that spreads every input bit over the whole state.
     */
    private static long step(long h, long v) {
        long x = h ^ (v * 0x9E3779B97F4A7C15L);
        x = (x ^ (x >>> 33)) * 0xff51afd7ed558ccdL;
        x = (x ^ (x >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return x ^ (x >>> 33);
    }
}
