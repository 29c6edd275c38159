package org.jtorch.compile.inductor;

import java.util.Map;
import org.jtorch.TorchException;

/**
 * The backend's options ({@code torch.compile(options={...})}): {@code "combo_kernels"} (a boolean, default false)
 * groups independent kernels into combo kernels of at most {@link #MAX_SUB_KERNELS} sub-kernels;
 * {@code "allow_buffer_reuse"} (a boolean, default true, PyTorch's Inductor option of that name) lets a compiled graph
 * keep its intermediate buffers between calls and give a dead buffer's storage to a later kernel. Other keys are
 * PyTorch's options for GPU code generation and are accepted without effect. {@code mode="reduce-overhead"} sets
 * {@code keepOutputs}.
 *
 * @param comboKernels whether independent kernels run as combo kernels (horizontal fusion)
 * @param allowBufferReuse whether intermediates live in storage the compiled graph keeps between calls, shared by
 *     buffers whose lifetimes do not overlap; false allocates every kernel output on every call
 * @param keepOutputs whether the graph's outputs, too, live in storage kept between calls, which the next call writes
 *     again ({@code mode="reduce-overhead"}); ignored without {@code allowBufferReuse}
 */
public record InductorConfig(boolean comboKernels, boolean allowBufferReuse, boolean keepOutputs) {
    /** The most sub-kernels one combo kernel holds. */
    public static final int MAX_SUB_KERNELS = 16;

    /** The default configuration: no combo kernels, buffers reused, outputs new on each call. */
    public static final InductorConfig DEFAULT = new InductorConfig(false, true, false);

    /** The default configuration with combo kernels on or off. */
    public InductorConfig(boolean comboKernels) {
        this(comboKernels, true, false);
    }

    /**
     * The configuration {@code options} give; throws {@link TorchException} for a non-boolean combo_kernels or
     * allow_buffer_reuse.
     */
    public static InductorConfig of(Map<String, Object> options) {
        boolean combo = flag(options, "combo_kernels", false);
        return new InductorConfig(combo, flag(options, "allow_buffer_reuse", true), false);
    }

    /** This configuration with {@link #keepOutputs()} set as given. */
    public InductorConfig withKeepOutputs(boolean keep) {
        return new InductorConfig(comboKernels, allowBufferReuse, keep);
    }

    private static boolean flag(Map<String, Object> options, String key, boolean fallback) {
        Object value = options.getOrDefault(key, fallback);
        if (!(value instanceof Boolean b)) {
            throw new TorchException("torch.compile: option " + key + " must be a boolean, got " + value);
        }
        return b;
    }
}
