package org.jtorch.io;

/**
 * Bounds the work and memory of one unpickling to a multiple of the pickle's size. A pickle can refer to one large
 * object many times through its memo (two bytes per reference); each operation that copies such an object (a set from a
 * list, bytes from a string, a shape from a tuple) is charged its size, so that a small hostile file cannot expand into
 * gigabytes or hours of work ("pickle bombs").
 */
final class Budget {
    /** Units every pickle may use regardless of its size. */
    static final long BASE = 64L << 20;
    /** Units per byte of pickle: real checkpoints use about one. */
    static final long PER_BYTE = 32;

    private final String what;
    private long left;

    private Budget(String what, long units) {
        this.what = what;
        this.left = units;
    }

    /** The budget for a pickle of {@code bytes} bytes. */
    static Budget forPickle(String what, long bytes) {
        long units = bytes > (Long.MAX_VALUE - BASE) / PER_BYTE ? Long.MAX_VALUE : BASE + PER_BYTE * bytes;
        return new Budget(what, units);
    }

    /** Spends {@code units} (one per element copied or visited), or fails when the budget is exhausted. */
    void charge(long units) {
        left -= units;
        if (left < 0) {
            throw new UnpicklingException(
                    what + ": the pickle builds far more data than its size justifies (it refers to large "
                            + "objects many times): refused as a possible pickle bomb");
        }
    }
}
