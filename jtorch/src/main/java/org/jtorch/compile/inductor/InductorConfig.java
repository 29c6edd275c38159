package org.jtorch.compile.inductor;

import java.util.Map;
import org.jtorch.TorchException;

/**
 * The backend's options ({@code torch.compile(options={...})}): {@code "combo_kernels"} (a boolean, default false)
 * groups independent kernels into combo kernels of at most {@link #MAX_SUB_KERNELS} sub-kernels. Other keys are
 * PyTorch's options for GPU code generation and are accepted without effect.
 *
 * @param comboKernels whether independent kernels run as combo kernels (horizontal fusion)
 */
public record InductorConfig(boolean comboKernels) {
    /** The most sub-kernels one combo kernel holds. */
    public static final int MAX_SUB_KERNELS = 16;

    /** The default configuration: no combo kernels. */
    public static final InductorConfig DEFAULT = new InductorConfig(false);

    /** The configuration {@code options} give; throws {@link TorchException} for a non-boolean combo_kernels. */
    public static InductorConfig of(Map<String, Object> options) {
        Object combo = options.getOrDefault("combo_kernels", false);
        if (!(combo instanceof Boolean b)) {
            throw new TorchException("torch.compile: option combo_kernels must be a boolean, got " + combo);
        }
        return new InductorConfig(b);
    }
}
