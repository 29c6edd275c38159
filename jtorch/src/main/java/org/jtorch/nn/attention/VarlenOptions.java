package org.jtorch.nn.attention;

/**
 * Keyword arguments of {@code varlen_attn}: {@code is_causal} (causal mask inside each sequence), {@code return_aux}
 * with {@code lse=True} (also return the log-sum-exp of the scaled scores) and {@code scale} (null = 1/sqrt(D)).
 */
public record VarlenOptions(boolean isCausal, boolean returnLse, Double scale) {

    /** No causal mask, no lse, scale 1/sqrt(D). */
    public static VarlenOptions defaults() {
        return new VarlenOptions(false, false, null);
    }

    /** Copy with {@code is_causal}. */
    public VarlenOptions isCausal(boolean causal) {
        return new VarlenOptions(causal, returnLse, scale);
    }

    /** Copy with {@code return_aux=AuxRequest(lse=...)}. */
    public VarlenOptions returnLse(boolean lse) {
        return new VarlenOptions(isCausal, lse, scale);
    }

    /** Copy with {@code scale} (null = 1/sqrt(D)). */
    public VarlenOptions scale(Double s) {
        return new VarlenOptions(isCausal, returnLse, s);
    }
}
