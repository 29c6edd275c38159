package org.jtorch.ops;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.TorchException;
import org.jtorch.accelerator.spi.DeviceBackend;
import org.jtorch.accelerator.spi.Kernel;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;

/**
 * The device backends, loaded once with {@link ServiceLoader} (modules that provide {@link DeviceBackend}, and
 * {@code META-INF/services} entries on the class path), and the lookups the rest of the library makes through them. The
 * SPI a backend implements is {@code org.jtorch.accelerator.spi}; this registry is the library's own. Nothing here is
 * on the CPU path but {@link #empty}'s first test: the dispatcher asks for backends only for devices other than the CPU
 * and meta.
 */
public final class Backends {
    private Backends() {}

    /** Loaded on first use, in type order (deterministic when several are present). */
    private static final class Loaded {
        static final List<DeviceBackend> ALL = load();

        private static List<DeviceBackend> load() {
            List<DeviceBackend> found = new ArrayList<>();
            for (DeviceBackend b : ServiceLoader.load(DeviceBackend.class, DeviceBackend.class.getClassLoader())) {
                String type = b.deviceType();
                if (type.equals("cpu") || type.equals("meta") || type.isEmpty() || type.contains(":")) {
                    throw new IllegalStateException(
                            "device backend " + b.getClass().getName() + ": invalid device type '" + type + "'");
                }
                for (DeviceBackend other : found) {
                    if (other.deviceType().equals(type)) {
                        throw new IllegalStateException("two device backends for type '" + type + "': "
                                + other.getClass().getName() + " and "
                                + b.getClass().getName());
                    }
                }
                checkKernelNames(b);
                found.add(b);
            }
            found.sort(Comparator.comparing(DeviceBackend::deviceType));
            return List.copyOf(found);
        }
    }

    /** The current device index of the accelerator, per thread (as CUDA's current device); 0 until set. */
    private static final ThreadLocal<int[]> CURRENT = ThreadLocal.withInitial(() -> new int[] {0});

    /** The current device index of backend type {@code type} on this thread. */
    public static int currentIndex(String type) {
        return CURRENT.get()[0];
    }

    /** Makes device {@code index} of the accelerator current on this thread (range-checked by the caller). */
    public static void setCurrentIndex(int index) {
        CURRENT.get()[0] = index;
    }

    /** The enabled backends. */
    public static List<DeviceBackend> all() {
        List<DeviceBackend> out = new ArrayList<>();
        for (DeviceBackend b : Loaded.ALL) if (b.isEnabled()) out.add(b);
        return out;
    }

    /** The enabled backend of a device type. */
    public static Optional<DeviceBackend> find(String type) {
        for (DeviceBackend b : Loaded.ALL) if (b.deviceType().equals(type) && b.isEnabled()) return Optional.of(b);
        return Optional.empty();
    }

    /** The accelerator: the first enabled backend (a build has one, as in PyTorch). */
    public static Optional<DeviceBackend> accelerator() {
        for (DeviceBackend b : Loaded.ALL) if (b.isEnabled()) return Optional.of(b);
        return Optional.empty();
    }

    /** Every device type a device string may name: cpu, meta and the enabled backends' types. */
    public static List<String> knownTypes() {
        List<String> types = new ArrayList<>(List.of("cpu", "meta"));
        for (DeviceBackend b : all()) types.add(b.deviceType());
        return types;
    }

    /** The backend that owns {@code device}; its index must be in range. */
    public static DeviceBackend forDevice(Device device) {
        DeviceBackend b = find(device.type())
                .orElseThrow(() ->
                        new TorchException("no device backend for device type '" + device.type() + "' is loaded"));
        int count = b.deviceCount();
        if (device.index() >= count) {
            throw new TorchException(device.type() + ": invalid device ordinal " + device.index() + " (the machine has "
                    + count + " device" + (count == 1 ? "" : "s") + ")");
        }
        return b;
    }

    /**
     * A fresh contiguous tensor impl on any device: zero-filled heap memory on the CPU and no data on meta (neither
     * loads a backend), else memory from the device's backend; a fake impl claiming {@code device} while a fake-tensor
     * mode runs an op ({@link DispatchState#isFakeAllocation()}), so that a composite allocating its own outputs makes
     * fake ones.
     */
    public static TensorImpl empty(long[] shape, DType dtype, Device device) {
        if (DispatchState.current().isFakeAllocation()) return TensorImpl.fake(shape, dtype, device);
        return emptyWithData(shape, dtype, device);
    }

    /** {@link #empty} for a caller that has checked that no fake-tensor mode is running the op. */
    static TensorImpl emptyWithData(long[] shape, DType dtype, Device device) {
        if (device == Device.CPU) return TensorImpl.empty(shape, dtype);
        if (device == Device.META) return TensorImpl.meta(shape, dtype);
        Storage storage = allocate(device, dtype.storageKind(), TensorImpl.slots(shape, dtype));
        return TensorImpl.contiguous(storage, shape, dtype);
    }

    /** Memory for a tensor on {@code device}, from its backend; a device without an index means index 0. */
    public static Storage allocate(Device device, DType.StorageKind kind, long slots) {
        if (slots < 0) throw new TorchException("Storage: negative size " + slots);
        Device indexed = device.hasIndex() ? device : Device.of(device.type(), 0);
        return forDevice(indexed).allocate(indexed, kind, slots);
    }

    /**
     * Ops whose own kernel serves every device because it only moves data through the backends' copy functions (the
     * device-to-device copy); registered by the op's definition.
     */
    private static final Set<OpDef> DEVICE_GENERIC = ConcurrentHashMap.newKeySet();

    /** Declares {@code op}'s own kernel device-generic: it runs for every backend device. */
    public static void registerDeviceGeneric(OpDef op) {
        if (op.kernel() == null) throw new IllegalArgumentException(op.name() + " is not a structured op");
        DEVICE_GENERIC.add(op);
    }

    /**
     * The kernel that runs {@code op} on {@code device}. An op the backend has no kernel for is refused with PyTorch's
     * wording ({@code Could not run 'aten::x' with arguments from the 'y' backend}).
     */
    public static OpDef.Kernel kernel(OpDef op, Device device) {
        if (DEVICE_GENERIC.contains(op)) return op.kernel();
        Kernel k = forDevice(device).kernels().get(op.qualifiedName());
        if (k == null) {
            throw new TorchException("Could not run 'aten::" + op.name() + "' with arguments from the '" + device.type()
                    + "' backend: the backend registers no kernel for " + op.name() + " (device " + device + ")");
        }
        return k::run;
    }

    /** Refuses a backend whose kernel table names an op that is not a structured op of the library. */
    private static void checkKernelNames(DeviceBackend backend) {
        for (String name : backend.kernels().names()) {
            OpDef op = OpRegistry.lookup(name);
            if (op == null || op.kernel() == null) {
                String what = op == null ? "not an op" : "not a structured op";
                throw new IllegalStateException("device backend "
                        + backend.getClass().getName() + " registers a "
                        + "kernel for '" + name + "', which is " + what + " (only structured ops have kernels: views "
                        + "and composites run on every device through their parts)");
            }
        }
    }
}
