package org.jtorch.accelerator;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jtorch.Device;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.Warnings;
import org.jtorch.accelerator.spi.DeviceBackend;
import org.jtorch.ops.Backends;

/**
 * {@code torch.accelerator} (2.15): the facade over the accelerator, which is the device backend loaded through
 * {@link org.jtorch.accelerator.spi.DeviceBackend} (the first one by type name, if several).
 *
 * <p>With no backend, as in a CPU-only build, the queries answer "none" ({@link #isAvailable()} is false,
 * {@link #deviceCount()} is 0, {@link #currentAccelerator()} is empty), and everything that needs a device raises
 * PyTorch's RuntimeError, "Cannot access accelerator device when none is available." A negative index passed to
 * {@link #setDeviceIndex(int)} is a no-op, as documented, even then.
 *
 * <p>The 2.14 RNG functions live in {@link Random} ({@code torch.accelerator.random}) and are aliased here; they read
 * the backend's per-device generators, and without an accelerator they throw {@link IllegalStateException}.
 */
public final class Accelerator {
    private Accelerator() {}

    /**
     * ATen's message when an accelerator is required and none exists ({@code at::accelerator::getAccelerator(true)}).
     */
    static final String NONE_AVAILABLE = "Cannot access accelerator device when none is available.";

    private static TorchException noAccelerator() {
        return new TorchException(NONE_AVAILABLE + " (no accelerator in this build)");
    }

    /** The accelerator's backend, if it has a device; else PyTorch's RuntimeError. */
    private static DeviceBackend backend() {
        return Backends.accelerator().filter(b -> b.deviceCount() > 0).orElseThrow(Accelerator::noAccelerator);
    }

    /** {@code index} checked against the accelerator's devices. */
    private static DeviceBackend backend(int index) {
        DeviceBackend b = backend();
        if (index < 0 || index >= b.deviceCount()) {
            throw new TorchException(b.deviceType() + ": invalid device ordinal " + index + " (device_count() is "
                    + b.deviceCount() + ")");
        }
        return b;
    }

    /** {@code torch.accelerator.is_available()}: a backend is loaded and has at least one device. */
    public static boolean isAvailable() {
        return Backends.accelerator().map(b -> b.deviceCount() > 0).orElse(false);
    }

    /** {@code torch.accelerator.device_count()}: the accelerator's devices; 0 without one. */
    public static int deviceCount() {
        return Backends.accelerator().map(DeviceBackend::deviceCount).orElse(0);
    }

    /** {@code torch.accelerator.current_accelerator()}: the build's accelerator device type; empty without one. */
    public static Optional<Device> currentAccelerator() {
        return currentAccelerator(false);
    }

    /** {@code torch.accelerator.current_accelerator(check_available)}: with the check, empty unless it is usable. */
    public static Optional<Device> currentAccelerator(boolean checkAvailable) {
        Optional<DeviceBackend> b = Backends.accelerator();
        if (checkAvailable && !isAvailable()) return Optional.empty();
        return b.map(x -> Device.of(x.deviceType(), -1));
    }

    /** {@code torch.accelerator.current_device_index()}: the current device of this thread; raises without one. */
    public static int currentDeviceIndex() {
        return Backends.currentIndex(backend().deviceType());
    }

    /** {@code torch.accelerator.current_device_idx()}, deprecated alias of {@link #currentDeviceIndex()}. */
    @Deprecated
    public static int currentDeviceIdx() {
        Warnings.warn(Warnings.Category.FUTURE_WARNING, "Use `current_device_index` instead.");
        return currentDeviceIndex();
    }

    /** {@code torch.accelerator.set_device_index(index)}: a negative index is a no-op; one out of range raises. */
    public static void setDeviceIndex(int index) {
        if (index < 0) return;
        backend(index);
        Backends.setCurrentIndex(index);
    }

    /**
     * {@code torch.accelerator.set_device_index(device)} with a device string: its type must be the current
     * accelerator's (ValueError otherwise, as {@code _get_device_index}); without an index it names the current device,
     * which stays current.
     */
    public static void setDeviceIndex(String device) {
        int colon = device.indexOf(':');
        String type = colon < 0 ? device : device.substring(0, colon);
        Optional<DeviceBackend> b = Backends.accelerator();
        if (b.isEmpty() || !b.get().deviceType().equals(type)) {
            throw new IllegalArgumentException(type + " doesn't match the current accelerator "
                    + b.map(DeviceBackend::deviceType).orElse("None") + ".");
        }
        if (colon >= 0) setDeviceIndex(Device.of(device));
    }

    /** {@code set_device_index(device)} with a {@link Device}: see {@link #setDeviceIndex(String)}. */
    public static void setDeviceIndex(Device device) {
        Optional<DeviceBackend> b = Backends.accelerator();
        if (b.isEmpty() || !b.get().deviceType().equals(device.type())) {
            setDeviceIndex(device.type());
            return;
        }
        if (device.hasIndex()) setDeviceIndex(device.index());
    }

    /** {@code torch.accelerator.set_device_idx(index)}, deprecated alias of {@link #setDeviceIndex(int)}. */
    @Deprecated
    public static void setDeviceIdx(int index) {
        Warnings.warn(Warnings.Category.FUTURE_WARNING, "Use `set_device_index` instead.");
        setDeviceIndex(index);
    }

    /** {@code torch.accelerator.synchronize()}: waits for the current device; raises without one. */
    public static void synchronize() {
        synchronize(currentDeviceIndex());
    }

    /** {@code torch.accelerator.synchronize(index)}: waits for device {@code index}; raises without it. */
    public static void synchronize(int index) {
        backend(index).synchronize(index);
    }

    /**
     * {@code with torch.accelerator.device_index(index):} makes {@code index} current for the scope and restores the
     * previous device on close. A null index is a no-op scope (as in PyTorch).
     */
    public static AutoCloseable deviceIndex(Integer index) {
        if (index == null) return () -> {};
        int before = currentDeviceIndex();
        setDeviceIndex(index);
        return () -> Backends.setCurrentIndex(before);
    }

    /** {@code torch.accelerator.initial_seed()} (2.14): alias of {@link Random#initialSeed()}. */
    public static long initialSeed() {
        return Random.initialSeed();
    }

    /** {@code torch.accelerator.get_rng_state()} (2.14): alias of {@link Random#getRngState()}. */
    public static Tensor getRngState() {
        return Random.getRngState();
    }

    /** {@code torch.accelerator.get_rng_state_all()} (2.14): alias of {@link Random#getRngStateAll()}. */
    public static List<Tensor> getRngStateAll() {
        return Random.getRngStateAll();
    }

    /** {@code set_rng_state(state)}: alias of {@link Random#setRngState(Tensor)}. */
    public static void setRngState(Tensor state) {
        Random.setRngState(state);
    }

    /**
     * {@code torch.accelerator.random} (2.14, PR #186597): the accelerator generators. They initialise the accelerator
     * eagerly, so without one each of them throws {@link IllegalStateException}.
     */
    public static final class Random {
        private Random() {}

        private static IllegalStateException noAccelerator() {
            return new IllegalStateException("no accelerator available: " + NONE_AVAILABLE);
        }

        /** The default generator of device {@code index} (the current one when null). */
        private static Generator generator(Integer index) {
            if (Backends.accelerator().filter(b -> b.deviceCount() > 0).isEmpty()) throw noAccelerator();
            int i = index == null ? currentDeviceIndex() : index;
            return backend(i).generator(i);
        }

        /** {@code initial_seed()}: the seed of the current accelerator device's default generator. */
        public static long initialSeed() {
            return generator(null).initialSeed();
        }

        /** {@code initial_seed(device)}. */
        public static long initialSeed(int device) {
            return generator(device).initialSeed();
        }

        /** {@code get_rng_state()}: the current accelerator device's generator state (uint8 tensor). */
        public static Tensor getRngState() {
            return generator(null).getState();
        }

        /** {@code get_rng_state(device)}. */
        public static Tensor getRngState(int device) {
            return generator(device).getState();
        }

        /** {@code get_rng_state_all()}: one state per accelerator device. */
        public static List<Tensor> getRngStateAll() {
            generator(null);
            List<Tensor> states = new ArrayList<>();
            for (int i = 0; i < deviceCount(); i++) states.add(generator(i).getState());
            return states;
        }

        /**
         * {@code set_rng_state(state)} (proposed for 2.16, PR #186599): restores the current device's generator from a
         * {@link #getRngState()} result; an invalid state leaves the generator unchanged.
         */
        public static void setRngState(Tensor state) {
            generator(null).setState(state);
        }

        /** {@code set_rng_state(state, device)}. */
        public static void setRngState(Tensor state, int device) {
            generator(device).setState(state);
        }
    }
}
