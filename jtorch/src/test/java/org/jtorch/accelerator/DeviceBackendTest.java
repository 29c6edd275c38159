package org.jtorch.accelerator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.library.CustomOp;
import org.jtorch.library.Library;
import org.jtorch.ops.Backends;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The device backend SPI end to end, through {@link FakeBackend} (found by ServiceLoader from the test class path):
 * device strings, the accelerator facade, {@code to(device)} round trips, dispatch to the backend's kernels, the
 * refusal of an op it lacks and of mixed devices, per-device generator state, and autograd across devices.
 */
class DeviceBackendTest {
    private static final Device FAKE0 = FakeBackend.device(0), FAKE1 = FakeBackend.device(1);

    private AutoCloseable enabled;

    @BeforeEach
    void enable() {
        enabled = FakeBackend.enable();
    }

    @AfterEach
    void disable() throws Exception {
        Accelerator.setDeviceIndex(0);
        enabled.close();
    }

    @Test
    void serviceLoaderFindsTheBackendOnlyWhileEnabled() throws Exception {
        assertTrue(Backends.find("fake").isPresent());
        enabled.close();
        assertFalse(Backends.find("fake").isPresent());
        assertFalse(Accelerator.isAvailable());
        assertThrows(IllegalArgumentException.class, () -> Device.of("fake"));
        enabled = FakeBackend.enable();
    }

    @Test
    void devicesAreInternedValues() {
        assertSame(FAKE1, Device.of("fake:1"));
        assertSame(Device.of("fake", 1), Device.of("fake", 1));
        assertNotSame(FAKE0, FAKE1);
        assertEquals("fake:1", FAKE1.toString());
        assertEquals("fake", FAKE1.type());
        assertEquals(1, FAKE1.index());
        assertEquals("fake", Device.of("fake").toString());
        assertFalse(Device.of("fake").hasIndex());
        assertSame(Device.CPU, Device.of("cpu"));
        assertSame(Device.CPU, Device.of("cpu:0"), "one CPU device, as PyTorch tensors on cpu:0 report cpu");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Device.of("cuda:0"));
        assertEquals("Expected one of cpu, meta, fake device type at start of device string: cuda:0", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Device.of("fake:x"));
    }

    @Test
    void acceleratorFacadeGoesThroughTheBackend() throws Exception {
        assertTrue(Accelerator.isAvailable());
        assertEquals(2, Accelerator.deviceCount());
        assertEquals(Optional.of(Device.of("fake")), Accelerator.currentAccelerator());
        assertEquals(Optional.of(Device.of("fake")), Accelerator.currentAccelerator(true));
        assertEquals(0, Accelerator.currentDeviceIndex());
        Accelerator.setDeviceIndex(1);
        assertEquals(1, Accelerator.currentDeviceIndex());
        try (AutoCloseable _ = Accelerator.deviceIndex(0)) {
            assertEquals(0, Accelerator.currentDeviceIndex());
        }
        assertEquals(1, Accelerator.currentDeviceIndex());
        Accelerator.setDeviceIndex("fake:0");
        assertEquals(0, Accelerator.currentDeviceIndex());
        Accelerator.setDeviceIndex(-1); // documented no-op
        assertEquals(0, Accelerator.currentDeviceIndex());
        TorchException range = assertThrows(TorchException.class, () -> Accelerator.setDeviceIndex(2));
        assertTrue(range.getMessage().contains("invalid device ordinal 2"), range.getMessage());
        IllegalArgumentException other =
                assertThrows(IllegalArgumentException.class, () -> Accelerator.setDeviceIndex("cuda:0"));
        assertEquals("cuda doesn't match the current accelerator fake.", other.getMessage());
        int before = FakeBackend.calls("synchronize:1");
        Accelerator.synchronize(1);
        assertEquals(before + 1, FakeBackend.calls("synchronize:1"));
    }

    @Test
    void toDeviceRoundTrips() {
        Tensor x = Torch.tensor(new double[][] {{1, 2, 3}, {4, 5, 6}});
        Tensor y = x.to(FAKE0);
        assertSame(FAKE0, y.device());
        assertNotSame(x.impl().storage(), y.impl().storage());
        assertArrayEquals(new long[] {2, 3}, y.shape());
        Tensor back = y.cpu();
        assertSame(Device.CPU, back.device());
        assertArrayEquals(x.toDoubleArray(), back.toDoubleArray());
        assertSame(y, y.to(FAKE0), "no copy when already there");
        assertSame(y, y.to(Device.of("fake")), "an index-less device is the current one");
        // a non-contiguous source, another device of the backend, integer and complex dtypes
        assertArrayEquals(
                x.t().contiguous().toDoubleArray(),
                x.t().to(FAKE1).to(FAKE0).cpu().toDoubleArray());
        assertSame(FAKE1, x.to(FAKE0).to(FAKE1).device());
        Tensor ints = Torch.tensor(new long[] {Long.MAX_VALUE, -3, 7});
        assertArrayEquals(ints.toLongArray(), ints.to(FAKE1).cpu().toLongArray());
        Tensor z = Torch.tensor(new double[] {1, 2, 3, 4}).to(DType.COMPLEX128);
        assertArrayEquals(z.toDoubleArray(), z.to(FAKE0).cpu().toDoubleArray());
        // a strided view of device memory comes back as its values
        assertArrayEquals(new double[] {1, 4, 2, 5, 3, 6}, y.t().cpu().toDoubleArray());
        // meta: shapes only; no data to copy out of it
        assertSame(Device.META, y.to(Device.META).device());
        UnsupportedOperationException meta = assertThrows(
                UnsupportedOperationException.class,
                () -> Torch.empty(new long[] {2}, DType.FLOAT32, Device.META).to(FAKE0));
        assertEquals("Cannot copy out of meta tensor; no data!", meta.getMessage());
        TorchException missing = assertThrows(TorchException.class, () -> x.to(Device.of("fake", 5)));
        assertTrue(missing.getMessage().contains("invalid device ordinal 5"), missing.getMessage());
    }

    @Test
    void opsRunTheBackendsKernels() {
        Tensor a = Torch.tensor(new double[] {1, 2, 3}).to(FAKE1),
                b = Torch.tensor(new double[] {10, 20, 30}).to(FAKE1);
        int adds = FakeBackend.calls("add"), sums = FakeBackend.calls("sum");
        Tensor c = a.add(b);
        assertSame(FAKE1, c.device());
        assertEquals(adds + 1, FakeBackend.calls("add"));
        Tensor s = c.sum();
        assertSame(FAKE1, s.device());
        assertEquals(sums + 1, FakeBackend.calls("sum"));
        assertArrayEquals(new double[] {66}, s.cpu().toDoubleArray());
        Tensor filled = Torch.full(new long[] {2}, 4.0, DType.FLOAT32, FAKE0);
        assertSame(FAKE0, filled.device());
        assertArrayEquals(new double[] {4, 4}, filled.cpu().toDoubleArray());
        // views need no kernel: they are geometry over the device's storage
        assertSame(FAKE1, a.view(3, 1).device());
    }

    @Test
    void anOpWithoutAKernelIsRefusedByName() {
        Tensor a = Torch.tensor(new double[] {1, 2}).to(FAKE0);
        TorchException e = assertThrows(TorchException.class, a::exp);
        assertTrue(
                e.getMessage().contains("Could not run 'aten::exp' with arguments from the 'fake' backend"),
                e.getMessage());
        assertTrue(e.getMessage().contains("fake:0"), e.getMessage());
    }

    @Test
    void mixingDevicesIsRefused() {
        Tensor onFake = Torch.tensor(new double[] {1, 2}).to(FAKE0), onCpu = Torch.tensor(new double[] {1, 2});
        TorchException e = assertThrows(TorchException.class, () -> onFake.add(onCpu));
        assertTrue(
                e.getMessage()
                        .contains("Expected all tensors to be on the same device, "
                                + "but found at least two devices, fake:0 and cpu"),
                e.getMessage());
        TorchException twoFakes = assertThrows(TorchException.class, () -> onFake.mul(onCpu.to(FAKE1)));
        assertTrue(twoFakes.getMessage().contains("fake:0 and fake:1"), twoFakes.getMessage());
        // a 0-d CPU tensor acts as a scalar, as in PyTorch
        assertSame(FAKE0, onFake.mul(Torch.tensor(new double[] {3}).view()).device());
    }

    @Test
    void generatorStateRoundTripsThroughTheAccelerator() {
        Generator g1 = Backends.find("fake").orElseThrow().generator(1);
        assertSame(FAKE1, g1.device());
        assertEquals(Generator.DEFAULT_SEED, Accelerator.Random.initialSeed(1));
        g1.manualSeed(1234);
        Tensor saved = Accelerator.Random.getRngState(1);
        assertEquals(Generator.STATE_SIZE, saved.numel());
        g1.manualSeed(99);
        assertEquals(99, Accelerator.Random.initialSeed(1));
        Accelerator.Random.setRngState(saved, 1);
        assertEquals(1234, Accelerator.Random.initialSeed(1));
        assertArrayEquals(saved.toLongArray(), Accelerator.Random.getRngState(1).toLongArray());
        // the current device's generator, and one state per device
        Accelerator.setDeviceIndex(1);
        assertEquals(1234, Accelerator.initialSeed());
        assertArrayEquals(saved.toLongArray(), Accelerator.getRngState().toLongArray());
        List<Tensor> all = Accelerator.getRngStateAll();
        assertEquals(2, all.size());
        assertArrayEquals(saved.toLongArray(), all.get(1).toLongArray());
        // an invalid state is refused and leaves the generator as it was
        assertThrows(
                RuntimeException.class,
                () -> Accelerator.setRngState(Torch.zeros(new long[] {10}, DType.UINT8, Device.CPU)));
        assertEquals(1234, Accelerator.initialSeed());
        assertThrows(TorchException.class, () -> Accelerator.Random.getRngState(2));
    }

    @Test
    void gradientsFlowBackAcrossDevices() {
        Tensor x = Torch.tensor(new double[] {1, 2, 3}).requiresGrad(true);
        Tensor onDevice = x.to(FAKE0);
        Tensor y = onDevice.mul(onDevice).sum().cpu();
        y.backward();
        assertSame(Device.CPU, x.grad().device());
        assertArrayEquals(new double[] {2, 4, 6}, x.grad().toDoubleArray());
    }

    @Test
    void vmapComparesWithAZeroDimCpuScalarOnABackendDevice() {
        // 2.14: scalar comparisons under vmap also when the scalar (a 0-dim tensor) lives on another device
        Tensor x = Torch.tensor(new double[][] {{1, 2, 3}, {0, 5, -1}}).to(FAKE0);
        Tensor s = Torch.scalarTensor(1.5, org.jtorch.DType.FLOAT64);
        Tensor got = org.jtorch.func.Func.vmap(t -> t.gt(s)).apply(x);
        assertSame(FAKE0, got.device());
        assertArrayEquals(new double[] {0, 1, 1, 0, 1, 0}, got.cpu().toDoubleArray(), 0);
    }

    /** A custom op runs the kernel registered for its inputs' device type, and its results land on that device. */
    @Test
    void aCustomOpRunsTheKernelRegisteredForTheDeviceType() {
        AtomicInteger fakeCalls = new AtomicInteger(), defaultCalls = new AtomicInteger();
        CustomOp twice = Library.customOp("mylib::twice_on_device", "(Tensor x) -> Tensor", args -> {
                    defaultCalls.incrementAndGet();
                    return ((Tensor) args[0]).mul(2.0);
                })
                .registerKernel("fake", args -> {
                    fakeCalls.incrementAndGet();
                    return ((Tensor) args[0]).cpu().mul(2.0);
                });
        Tensor x = Torch.tensor(new float[] {1f, -2f, 3f});
        Tensor y = (Tensor) twice.call(x.to(FAKE0));
        assertSame(FAKE0, y.device());
        assertArrayEquals(new float[] {2f, -4f, 6f}, y.cpu().toFloatArray());
        assertEquals(1, fakeCalls.get());
        assertEquals(0, defaultCalls.get());
        assertArrayEquals(new float[] {2f, -4f, 6f}, ((Tensor) twice.call(x)).toFloatArray());
        assertEquals(1, defaultCalls.get());
        var meta = assertThrows(IllegalArgumentException.class, () -> twice.registerKernel("meta", args -> args[0]));
        assertTrue(meta.getMessage().contains("registerFake"), meta.getMessage());
    }
}
