package org.jtorch.accelerator.spi;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.storage.Storage;

/**
 * A device backend, found with {@link java.util.ServiceLoader}: a module declares {@code provides
 * org.jtorch.accelerator.spi.DeviceBackend with ...}, a jar on the class path lists the implementation in
 * {@code META-INF/services/org.jtorch.accelerator.spi.DeviceBackend}. It contributes one device type (PyTorch's
 * {@code PrivateUse1} idea): its devices, their memory, copies to and from the CPU, a default generator per device, and
 * a kernel per op it supports ({@link KernelTable}). The dispatcher runs an op whose tensors live on the backend's
 * devices with the backend's kernel for that op; the meta rule, the autograd recording and the modes are shared with
 * the CPU.
 *
 * <p>Implementations must be thread-safe, and their constructor must not create tensors (it runs while backends are
 * being loaded).
 */
public interface DeviceBackend {
    /** PyTorch's device type string ({@code "cuda"}, {@code "xpu"}, ...); neither {@code "cpu"} nor {@code "meta"}. */
    String deviceType();

    /**
     * Whether the backend's runtime is present on this machine. A backend that returns false is ignored as if it were
     * not on the class path (a CPU-only machine with a backend jar but no driver). Checked on every query, so it may
     * change (tests switch a fake backend on and off).
     */
    default boolean isEnabled() {
        return true;
    }

    /** How many devices of this type the machine has ({@code device_count()}). */
    int deviceCount();

    /** Zero-filled storage of {@code slots} slots of {@code kind} on {@code device} (one of this backend's). */
    @SuppressWarnings("exports") // see the package documentation: storage is not exported
    Storage allocate(Device device, DType.StorageKind kind, long slots);

    /**
     * Copies {@code src} (a contiguous CPU tensor) into {@code dst} (contiguous, on one of this backend's devices, same
     * shape and dtype).
     */
    void copyFromCpu(Tensor src, Tensor dst);

    /**
     * Copies {@code src} (any view on one of this backend's devices) into {@code dst} (contiguous CPU, same shape and
     * dtype).
     */
    void copyToCpu(Tensor src, Tensor dst);

    /** The default generator of device {@code index} (0 &le; index &lt; {@link #deviceCount()}). */
    Generator generator(int index);

    /** The kernels this backend registered, per op. */
    KernelTable kernels();

    /** Waits for all work queued on device {@code index} ({@code synchronize}); a synchronous backend does nothing. */
    default void synchronize(int index) {}
}
