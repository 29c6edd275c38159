package org.jtorch.accelerator;

import java.util.List;
import java.util.Optional;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.Warnings;

/**
 * {@code torch.accelerator} (2.15) with no accelerator present, which is every JTorch build today: the
 * queries answer "none" ({@link #isAvailable()} is false, {@link #deviceCount()} is 0,
 * {@link #currentAccelerator()} is empty), and everything that needs a device raises PyTorch's
 * RuntimeError, "Cannot access accelerator device when none is available." A negative index passed to
 * {@link #setDeviceIndex(int)} is a no-op, as documented, even then.
 *
 * <p>The 2.14 RNG functions live in {@link Random} ({@code torch.accelerator.random}) and are aliased
 * here; without an accelerator they throw {@link IllegalStateException}.
 */
public final class Accelerator {
    private Accelerator() {}

    /** ATen's message when an accelerator is required and none exists ({@code at::accelerator::getAccelerator(true)}). */
    static final String NONE_AVAILABLE = "Cannot access accelerator device when none is available.";

    private static TorchException noAccelerator() {
        return new TorchException(NONE_AVAILABLE + " (no accelerator in this build)");
    }

    /** {@code torch.accelerator.is_available()}: false, no accelerator is built in. */
    public static boolean isAvailable() { return false; }

    /** {@code torch.accelerator.device_count()}: 0. */
    public static int deviceCount() { return 0; }

    /** {@code torch.accelerator.current_accelerator()}: the build's accelerator device type; empty here. */
    public static Optional<Device> currentAccelerator() { return Optional.empty(); }

    /** {@code torch.accelerator.current_accelerator(check_available)}: empty whether or not availability is checked. */
    public static Optional<Device> currentAccelerator(boolean checkAvailable) { return Optional.empty(); }

    /** {@code torch.accelerator.current_device_index()}: raises, there is no device. */
    public static int currentDeviceIndex() { throw noAccelerator(); }

    /** {@code torch.accelerator.current_device_idx()}, deprecated alias of {@link #currentDeviceIndex()}. */
    @Deprecated
    public static int currentDeviceIdx() {
        Warnings.warn(Warnings.Category.FUTURE_WARNING, "Use `current_device_index` instead.");
        return currentDeviceIndex();
    }

    /** {@code torch.accelerator.set_device_index(index)}: a negative index is a no-op; any other raises. */
    public static void setDeviceIndex(int index) {
        if (index < 0) return;
        throw noAccelerator();
    }

    /**
     * {@code torch.accelerator.set_device_index(device)} with a device or device string: its type must be the
     * current accelerator's, and there is none (ValueError, as {@code _get_device_index}).
     */
    public static void setDeviceIndex(String device) {
        int colon = device.indexOf(':');
        String type = colon < 0 ? device : device.substring(0, colon);
        throw new IllegalArgumentException(type + " doesn't match the current accelerator None.");
    }

    /** {@code set_device_index(device)} with a {@link Device}: see {@link #setDeviceIndex(String)}. */
    public static void setDeviceIndex(Device device) { setDeviceIndex(device.type()); }

    /** {@code torch.accelerator.set_device_idx(index)}, deprecated alias of {@link #setDeviceIndex(int)}. */
    @Deprecated
    public static void setDeviceIdx(int index) {
        Warnings.warn(Warnings.Category.FUTURE_WARNING, "Use `set_device_index` instead.");
        setDeviceIndex(index);
    }

    /** {@code torch.accelerator.synchronize()}: waits for the current device; raises, there is none. */
    public static void synchronize() { throw noAccelerator(); }

    /** {@code torch.accelerator.synchronize(index)}: raises, there is no device. */
    public static void synchronize(int index) { throw noAccelerator(); }

    /**
     * {@code with torch.accelerator.device_index(index):} switches device for the scope. A null index is a
     * no-op scope (as in PyTorch); any index raises, there is no device to switch to.
     */
    public static AutoCloseable deviceIndex(Integer index) {
        if (index == null) return () -> { };
        throw noAccelerator();
    }

    /** {@code torch.accelerator.initial_seed()} (2.14): alias of {@link Random#initialSeed()}. */
    public static long initialSeed() { return Random.initialSeed(); }

    /** {@code torch.accelerator.get_rng_state()} (2.14): alias of {@link Random#getRngState()}. */
    public static Tensor getRngState() { return Random.getRngState(); }

    /** {@code torch.accelerator.get_rng_state_all()} (2.14): alias of {@link Random#getRngStateAll()}. */
    public static List<Tensor> getRngStateAll() { return Random.getRngStateAll(); }

    /**
     * {@code torch.accelerator.random} (2.14, PR #186597): the accelerator generators. They initialise the
     * accelerator eagerly, so without one each of them throws {@link IllegalStateException}.
     */
    public static final class Random {
        private Random() {}

        private static IllegalStateException noAccelerator() {
            return new IllegalStateException("no accelerator available: " + NONE_AVAILABLE);
        }

        /** {@code initial_seed()}: the seed of the current accelerator device's default generator. */
        public static long initialSeed() { throw noAccelerator(); }

        /** {@code initial_seed(device)}. */
        public static long initialSeed(int device) { throw noAccelerator(); }

        /** {@code get_rng_state()}: the current accelerator device's generator state (uint8 tensor). */
        public static Tensor getRngState() { throw noAccelerator(); }

        /** {@code get_rng_state(device)}. */
        public static Tensor getRngState(int device) { throw noAccelerator(); }

        /** {@code get_rng_state_all()}: one state per accelerator device. */
        public static List<Tensor> getRngStateAll() { throw noAccelerator(); }
    }
}
