package org.jtorch.amp;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.TorchException;
import org.jtorch.Warnings;

/**
 * {@code torch.amp}: automatic mixed precision. {@link #autocast} opens a region in which the ops on PyTorch's CPU
 * autocast lists run in bfloat16 or float16 (matrix products, convolutions, attention), float32 (losses, linear
 * algebra) or the widest input dtype ({@code cat}, {@code stack}); {@link GradScaler} scales float16 losses so that
 * small gradients do not underflow.
 *
 * <pre>{@code
 * try (var ac = Amp.autocast(Device.CPU, DType.BFLOAT16)) {
 *     Tensor loss = F.crossEntropy(model.forward(x), y);   // logits bfloat16, loss float32
 * }
 * }</pre>
 */
public final class Amp {
    private Amp() {}

    /** CPU autocast's dtype when none is given ({@code torch.get_autocast_dtype("cpu")} outside any region). */
    private static final DType CPU_DEFAULT = DType.BFLOAT16;

    /** {@code torch.autocast(device_type, dtype)}: an enabled region with the cast cache on. */
    public static Autocast autocast(Device device, DType dtype) {
        return autocast(device, dtype, true, true);
    }

    /**
     * {@code torch.autocast(device_type, enabled=)}: the dtype of the enclosing region (bfloat16 outside any); with
     * {@code enabled=false} the ops inside run as given, also inside an enabled region.
     */
    public static Autocast autocast(Device device, boolean enabled) {
        return autocast(device, getAutocastDtype(device), enabled, true);
    }

    /** {@code torch.autocast(device_type, dtype, enabled=)}. */
    public static Autocast autocast(Device device, DType dtype, boolean enabled) {
        return autocast(device, dtype, enabled, true);
    }

    /**
     * {@code torch.autocast(device_type, dtype, enabled, cache_enabled)}. Only the CPU is supported; a dtype other than
     * bfloat16 or float16 warns and disables the region, as PyTorch's CPU autocast does.
     */
    public static Autocast autocast(Device device, DType dtype, boolean enabled, boolean cacheEnabled) {
        checkDevice(device);
        if (dtype == null) throw new TorchException("autocast: dtype must not be null");
        if (enabled && dtype != DType.BFLOAT16 && dtype != DType.FLOAT16) {
            Warnings.warn("In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
                    + "CPU Autocast only supports dtype of torch.bfloat16, torch.float16 currently.");
            enabled = false;
        }
        return new Autocast(dtype, enabled, cacheEnabled);
    }

    /** {@code torch.is_autocast_enabled(device_type)}: whether ops on this thread are cast now. */
    public static boolean isAutocastEnabled(Device device) {
        checkDevice(device);
        Autocast.Region r = Autocast.innermost();
        return r != null && r.enabled;
    }

    /** {@code torch.get_autocast_dtype(device_type)}: the innermost region's dtype, bfloat16 outside any. */
    public static DType getAutocastDtype(Device device) {
        checkDevice(device);
        Autocast.Region r = Autocast.innermost();
        return r == null ? CPU_DEFAULT : r.dtype;
    }

    private static void checkDevice(Device device) {
        if (device != Device.CPU) {
            throw new TorchException("User specified an unsupported autocast device_type '" + device
                    + "'; JTorch's autocast supports 'cpu'");
        }
    }
}
