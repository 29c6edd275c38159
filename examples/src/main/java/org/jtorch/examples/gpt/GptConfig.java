package org.jtorch.examples.gpt;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The shape of a {@link Gpt}: nanoGPT's {@code GPTConfig}. {@code norm} is {@code "layernorm"} or {@code "rmsnorm"}.
 */
public record GptConfig(int vocabSize, int blockSize, int nLayer, int nHead, int nEmbd, String norm) {

    public GptConfig {
        if (vocabSize <= 0 || blockSize <= 0 || nLayer <= 0 || nHead <= 0 || nEmbd <= 0) {
            throw new IllegalArgumentException("GptConfig: every size must be positive, got " + this);
        }
        if (nEmbd % nHead != 0) {
            throw new IllegalArgumentException(
                    "GptConfig: n_embd (" + nEmbd + ") must be a multiple of n_head (" + nHead + ")");
        }
        if (!norm.equals("layernorm") && !norm.equals("rmsnorm")) {
            throw new IllegalArgumentException("GptConfig: norm must be 'layernorm' or 'rmsnorm', got '" + norm + "'");
        }
    }

    /** The config as the plain map stored in checkpoints (PyTorch reads it as a dict of ints and a str). */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("vocab_size", (long) vocabSize);
        m.put("block_size", (long) blockSize);
        m.put("n_layer", (long) nLayer);
        m.put("n_head", (long) nHead);
        m.put("n_embd", (long) nEmbd);
        m.put("norm", norm);
        return m;
    }

    /** Reads what {@link #toMap()} wrote. */
    public static GptConfig fromMap(Map<?, ?> m) {
        return new GptConfig(
                intOf(m, "vocab_size"),
                intOf(m, "block_size"),
                intOf(m, "n_layer"),
                intOf(m, "n_head"),
                intOf(m, "n_embd"),
                String.valueOf(m.get("norm")));
    }

    private static int intOf(Map<?, ?> m, String key) {
        if (!(m.get(key) instanceof Number n))
            throw new IllegalArgumentException("GPT config: missing integer '" + key + "'");
        return n.intValue();
    }
}
