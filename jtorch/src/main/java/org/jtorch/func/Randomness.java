package org.jtorch.func;

/** {@code vmap(randomness=...)}: how random ops behave inside vmap. */
public enum Randomness {
    /** Any random op inside the function raises (the default). */
    ERROR,
    /** Each example gets independent random values. */
    DIFFERENT,
    /** Every example sees the same random values. */
    SAME;

    /** PyTorch's string form: "error", "different" or "same". */
    public static Randomness of(String s) {
        return switch (s) {
            case "error" -> ERROR;
            case "different" -> DIFFERENT;
            case "same" -> SAME;
            default ->
                throw new org.jtorch.TorchException(
                        "Only allowed values for randomness are 'error', 'different', or 'same'. Got " + s);
        };
    }
}
