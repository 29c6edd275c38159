package org.jtorch.nn;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jtorch.DType;
import org.jtorch.Device;

/**
 * {@code torch.nn.LinearCrossEntropyOptions} (2.15): opting {@code linear_cross_entropy} into the chunked path.
 * Immutable; the compact constructor validates every field as PyTorch's frozen dataclass does, and the {@code with…}
 * methods return modified copies.
 *
 * @param allowRetainGraph for 'mean'/'sum', keep the precomputed gradients so a second backward works
 * @param batchChunkSize rows per chunk, or null to let {@code chunkingMethod} (or one chunk) decide
 * @param chunkingMethod "auto", "aspect_ratio", "aspect_ratio:k" (k ≥ 1) or null (use {@code batchChunkSize})
 * @param accPolicy precision/memory trade-off
 * @param accDtype internal accumulation dtype, or null to derive it from the input dtype
 */
public record LinearCrossEntropyOptions(
        boolean allowRetainGraph, Integer batchChunkSize, String chunkingMethod, AccPolicy accPolicy, DType accDtype) {

    private static final Pattern ASPECT_RATIO = Pattern.compile("aspect_ratio(?::(\\d+))?");

    /** {@code acc_policy}: which intermediates live in {@code acc_dtype}. 2.14 removed "balanced". */
    public enum AccPolicy {
        /** {@code "auto"}: {@code "accurate"} for half-precision inputs on the CPU, else {@code "compact"}. */
        AUTO,
        /** {@code "accurate"}: intermediates in {@code acc_dtype}, the closest match to the unchunked loss. */
        ACCURATE,
        /** {@code "compact"}: intermediates kept in the input dtype, for the least memory. */
        COMPACT;

        /** PyTorch's spelling ("auto", "accurate", "compact"). */
        public String pytorchName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Parses PyTorch's string; anything else (notably the removed "balanced") is PyTorch's ValueError. */
        public static AccPolicy parse(String name) {
            for (AccPolicy p : values()) if (p.pytorchName().equals(name)) return p;
            throw new IllegalArgumentException(
                    "invalid acc_policy: '" + name + "'; expected one of 'auto', 'accurate', 'compact'");
        }
    }

    /** Validates like the dataclass's {@code __post_init__}. */
    public LinearCrossEntropyOptions {
        if (batchChunkSize != null && batchChunkSize <= 0) {
            throw new IllegalArgumentException(
                    "batch_chunk_size must be a positive integer or None, got " + batchChunkSize);
        }
        if (chunkingMethod != null && !chunkingMethod.equals("auto") && aspectFactor(chunkingMethod) < 1) {
            throw new IllegalArgumentException("invalid chunking_method: '" + chunkingMethod
                    + "'; expected 'auto', 'aspect_ratio', 'aspect_ratio:k' with an integer k >= 1, or None");
        }
        if (accPolicy == null)
            throw new IllegalArgumentException(
                    "invalid acc_policy: None; expected one of 'auto', 'accurate', 'compact'");
        if (accDtype != null
                && accDtype != DType.FLOAT16
                && accDtype != DType.BFLOAT16
                && accDtype != DType.FLOAT32
                && accDtype != DType.FLOAT64) {
            throw new IllegalArgumentException("invalid acc_dtype: " + accDtype
                    + "; expected None, torch.float16, torch.bfloat16, torch.float32 or torch.float64");
        }
    }

    /** {@code LinearCrossEntropyOptions()}: no retained graph, automatic chunking, policy and accumulation dtype. */
    public static LinearCrossEntropyOptions defaults() {
        return new LinearCrossEntropyOptions(false, null, "auto", AccPolicy.AUTO, null);
    }

    /** Copy with {@code allow_retain_graph}. */
    public LinearCrossEntropyOptions withAllowRetainGraph(boolean allow) {
        return new LinearCrossEntropyOptions(allow, batchChunkSize, chunkingMethod, accPolicy, accDtype);
    }

    /** Copy with {@code batch_chunk_size} (null = none). */
    public LinearCrossEntropyOptions withBatchChunkSize(Integer size) {
        return new LinearCrossEntropyOptions(allowRetainGraph, size, chunkingMethod, accPolicy, accDtype);
    }

    /** Copy with {@code chunking_method} (null = use {@code batch_chunk_size}). */
    public LinearCrossEntropyOptions withChunkingMethod(String method) {
        return new LinearCrossEntropyOptions(allowRetainGraph, batchChunkSize, method, accPolicy, accDtype);
    }

    /**
     * Copy with {@code acc_policy} given as PyTorch's string; "balanced" is refused with a message naming "compact".
     */
    public LinearCrossEntropyOptions withAccPolicy(String policy) {
        return withAccPolicy(AccPolicy.parse(policy));
    }

    /** Copy with {@code acc_policy}. */
    public LinearCrossEntropyOptions withAccPolicy(AccPolicy policy) {
        return new LinearCrossEntropyOptions(allowRetainGraph, batchChunkSize, chunkingMethod, policy, accDtype);
    }

    /** Copy with {@code acc_dtype} (null = derived from the input dtype). */
    public LinearCrossEntropyOptions withAccDtype(DType dtype) {
        return new LinearCrossEntropyOptions(allowRetainGraph, batchChunkSize, chunkingMethod, accPolicy, dtype);
    }

    // ---- call-time resolution (PyTorch's _adjust) ----------------------------------------------------

    /**
     * The policy in effect for inputs of {@code dtype} on {@code device}: 'auto' is 'accurate' only for CPU half types.
     */
    public AccPolicy resolvedAccPolicy(DType dtype, Device device) {
        if (accPolicy != AccPolicy.AUTO) return accPolicy;
        return device != Device.META && isHalf(dtype) ? AccPolicy.ACCURATE : AccPolicy.COMPACT;
    }

    /**
     * The accumulation dtype in effect: an explicit one, float32 for half inputs under 'auto', else the input dtype.
     */
    public DType resolvedAccDtype(DType dtype) {
        if (accDtype != null) return accDtype;
        return accPolicy == AccPolicy.AUTO && isHalf(dtype) ? DType.FLOAT32 : dtype;
    }

    /**
     * Rows per chunk for an {@code (n, f)} input and {@code c} classes. An explicit size wins over 'auto'; an explicit
     * size and a non-auto method that disagree are PyTorch's ValueError.
     */
    public long resolvedChunkSize(long n, long f, long c, boolean probabilityTargets, DType dtype, Device device) {
        long rows = Math.max(n, 1);
        Long explicit = batchChunkSize == null ? null : Math.min(batchChunkSize, rows);
        if (chunkingMethod == null) return explicit == null ? rows : explicit;
        if (chunkingMethod.equals("auto")) {
            if (explicit != null) return explicit;
            long b = aspectRatioChunk(rows, f, c, 1);
            if (resolvedAccPolicy(dtype, device) == AccPolicy.COMPACT) {
                long ref = probabilityTargets ? rows / 2 : rows * c / Math.max(4 * f, 1);
                b = Math.min(b, floorPow2(Math.max(ref, 1)));
            }
            return Math.max(1, b);
        }
        long b = aspectRatioChunk(rows, f, c, aspectFactor(chunkingMethod));
        if (explicit != null && explicit != b) {
            throw new IllegalArgumentException(
                    "batch_chunk_size (=" + batchChunkSize + ") and chunking_method ('" + chunkingMethod
                            + "') give different chunk sizes (" + batchChunkSize + " vs " + b + "); pass only one.");
        }
        return b;
    }

    /** {@code aspect_ratio:k}: {@code min(next_pow2(ceil(N / ceil(C / F))) / k, N)}, at least 1. */
    private static long aspectRatioChunk(long n, long f, long c, long k) {
        long ratio = Math.max(1, ceilDiv(c, Math.max(f, 1)));
        return Math.max(1, Math.min(nextPow2(ceilDiv(n, ratio)) / k, n));
    }

    /** The factor k of "aspect_ratio[:k]", or 0 when {@code method} is not of that form. */
    private static long aspectFactor(String method) {
        Matcher m = ASPECT_RATIO.matcher(method);
        if (!m.matches()) return 0;
        if (m.group(1) == null) return 1;
        try {
            return Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static boolean isHalf(DType d) {
        return d == DType.FLOAT16 || d == DType.BFLOAT16;
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    private static long nextPow2(long x) {
        return x <= 1 ? 1 : Long.highestOneBit(x - 1) << 1;
    }

    private static long floorPow2(long x) {
        return Long.highestOneBit(x);
    }
}
