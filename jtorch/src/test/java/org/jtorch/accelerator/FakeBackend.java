package org.jtorch.accelerator;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.accelerator.spi.DeviceBackend;
import org.jtorch.accelerator.spi.KernelTable;
import org.jtorch.ops.Creation;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.PointwiseOps;
import org.jtorch.ops.ReductionOps;
import org.jtorch.storage.Storage;
import org.jtorch.testing.Views;

/**
 * A device backend for tests, listed in META-INF/services: device type {@code fake}, two devices, memory on the Java
 * heap (so its kernels are the CPU kernels, counted), but a distinct {@link Device} everywhere. It is switched off
 * unless a test {@link #enable()}s it, so that every other test sees the CPU-only library (ServiceLoader still finds
 * it, which is what the SPI test proves). A META-INF/services entry counts on the class path only, so
 * {@link DeviceBackendTest} runs there (see the jtorch pom); a backend module declares {@code provides
 * org.jtorch.accelerator.spi.DeviceBackend} instead.
 */
public final class FakeBackend implements DeviceBackend {
    static final String TYPE = "fake";
    static final int DEVICES = 2;

    private static volatile boolean enabled;

    /** Calls per op name to the kernels below, and synchronize calls per device. */
    static final Map<String, AtomicInteger> CALLS = new ConcurrentHashMap<>();

    private final Generator[] generators = new Generator[DEVICES];
    private final KernelTable kernels = new KernelTable();

    public FakeBackend() {
        // creation, pointwise ops, a comparison, a reduction: enough for to(), arithmetic and autograd's zeros/ones
        for (OpDef op : List.of(
                Creation.FULL, Creation.FILL, PointwiseOps.ADD, PointwiseOps.MUL, PointwiseOps.GT, ReductionOps.SUM)) {
            OpDef.Kernel cpu = op.kernel();
            kernels.register(op.qualifiedName(), (args, outs, spec) -> {
                CALLS.computeIfAbsent(op.name(), k -> new AtomicInteger()).incrementAndGet();
                cpu.run(args, outs, spec);
            });
        }
    }

    /** Switches the backend on until the returned scope closes. */
    static AutoCloseable enable() {
        enabled = true;
        return () -> enabled = false;
    }

    static int calls(String op) {
        AtomicInteger n = CALLS.get(op);
        return n == null ? 0 : n.get();
    }

    static Device device(int index) {
        return Device.of(TYPE, index);
    }

    @Override
    public String deviceType() {
        return TYPE;
    }

    @Override
    public boolean isEnabled() {
        return enabled;
    }

    @Override
    public int deviceCount() {
        return DEVICES;
    }

    @Override
    @SuppressWarnings("exports") // the SPI's storage type, as in DeviceBackend
    public Storage allocate(Device device, DType.StorageKind kind, long slots) {
        Storage host = Storage.allocate(kind, slots);
        return Storage.ofDevice(device, kind, slots, host.array(), host.segment());
    }

    @Override
    public void copyFromCpu(Tensor src, Tensor dst) {
        long width = (long) Storage.slotBytes(src.dtype().storageKind())
                * src.dtype().slotsPerElement();
        MemorySegment.copy(
                src.impl().storage().segment(),
                src.storageOffset() * width,
                dst.impl().storage().segment(),
                dst.storageOffset() * width,
                src.numel() * width);
    }

    @Override
    public void copyToCpu(Tensor src, Tensor dst) {
        // read the device memory through a CPU alias of the same view, copied by the CPU
        Storage s = src.impl().storage();
        Storage host =
                switch (s.array()) {
                    case byte[] a -> Storage.wrap(a);
                    case short[] a -> Storage.wrap(a);
                    case int[] a -> Storage.wrap(a);
                    case long[] a -> Storage.wrap(a);
                    case float[] a -> Storage.wrap(a);
                    case double[] a -> Storage.wrap(a);
                    default -> throw new IllegalStateException("fake storage is a heap array");
                };
        long elements = s.slots() / src.dtype().slotsPerElement();
        Tensor alias = Views.of(
                Creation.fromStorage(host, new long[] {elements}, src.dtype()),
                src.storageOffset(),
                src.shape(),
                src.stride());
        dst.copy_(alias);
    }

    @Override
    public synchronized Generator generator(int index) {
        if (generators[index] == null) generators[index] = new Generator(device(index));
        return generators[index];
    }

    @Override
    public KernelTable kernels() {
        return kernels;
    }

    @Override
    public void synchronize(int index) {
        CALLS.computeIfAbsent("synchronize:" + index, k -> new AtomicInteger()).incrementAndGet();
    }
}
