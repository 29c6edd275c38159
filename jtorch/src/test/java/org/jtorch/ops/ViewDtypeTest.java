package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code Tensor.view(dtype)} against PyTorch 2.13 ({@code make_golden_view_dtype.py}): every pair of twelve dtypes on a
 * contiguous input and strided inputs that reach each of ATen's checks, comparing the reinterpreted values bit for bit,
 * the view's geometry, the error messages, and the base after a write through the view. The other tests pin the sharing
 * of memory and version counter, and autograd's treatment (never requires grad, not a view of its input).
 */
class ViewDtypeTest {
    static Stream<Golden.Case> cases() {
        return Golden.cases("view_dtype.json").stream();
    }

    @Test
    void fixtureIsLoaded() {
        assertEquals(244, Golden.cases("view_dtype.json").size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesPyTorch(Golden.Case c) {
        Golden.check(c, List.of(), true, () -> run(c));
    }

    @SuppressWarnings("unchecked")
    private static Object run(Golden.Case c) {
        Tensor base = c.tensorArg(0);
        DType dtype = (DType) c.kwarg("dtype");
        long[] size = longs(c.kwarg("size")), stride = longs(c.kwarg("stride"));
        long offset = ((Number) c.kwarg("offset")).longValue();
        Tensor view = base.asStrided(size, stride, offset).view(dtype);
        List<Object> r = new ArrayList<>();
        r.add(view.clone());
        long[] geometry = new long[2 * view.dim() + 1];
        for (int i = 0; i < view.dim(); i++) {
            geometry[i] = view.size(i);
            geometry[view.dim() + i] = view.stride(i);
        }
        geometry[2 * view.dim()] = view.storageOffset();
        r.add(Torch.tensor(geometry));
        if (((List<Object>) c.out()).size() == 3) {
            view.copy_(c.tensorArg(1));
            r.add(base);
        }
        return r;
    }

    private static long[] longs(Object json) {
        return ((List<?>) json)
                .stream().mapToLong(v -> ((Number) v).longValue()).toArray();
    }

    @Test
    void readsTheBitsOfTheOtherDtype() {
        Tensor x = Torch.tensor(new float[] {1f, -2f});
        assertArrayEquals(
                new long[] {Float.floatToIntBits(1f), Float.floatToIntBits(-2f)},
                x.view(DType.INT32).toLongArray());
        long bits = Double.doubleToLongBits(1.5);
        Tensor asBytes = Torch.tensor(new double[] {1.5}).view(DType.UINT8);
        long[] bytes = asBytes.toLongArray();
        for (int i = 0; i < 8; i++) assertEquals((bits >>> (8 * i)) & 0xff, bytes[i], "little-endian byte " + i);
    }

    @Test
    void writesShowThroughBothWaysAndShareTheVersionCounter() {
        Tensor x = Torch.zeros(2, 4);
        Tensor asInts = x.view(DType.INT32);
        Tensor asDoubles = x.view(DType.FLOAT64);
        int before = x.version();
        asInts.fill_(Float.floatToIntBits(3f));
        assertArrayEquals(new double[] {3, 3, 3, 3, 3, 3, 3, 3}, x.toDoubleArray());
        assertTrue(x.version() > before, "a write through the view bumps the base's version");
        assertEquals(x.version(), asDoubles.version());
        x.fill_(0.0);
        assertArrayEquals(new double[] {0, 0, 0, 0}, asDoubles.toDoubleArray());
        assertSame(x.untypedStorage(), asInts.untypedStorage());
    }

    @Test
    void aViewBackToTheOriginalDtypeReadsTheOriginalArray() {
        Tensor x = Torch.zeros(8);
        assertSame(
                x.impl().storage(),
                x.view(DType.INT16).view(DType.FLOAT32).impl().storage());
        assertSame(
                x.view(DType.INT32).impl().storage(), x.view(DType.INT32).impl().storage());
    }

    @Test
    void neverRequiresGradAndIsNotAnAutogradView() {
        Tensor leaf = Torch.randn(4).requiresGrad(true);
        for (DType d : new DType[] {DType.FLOAT32, DType.INT32, DType.FLOAT16}) {
            Tensor v = leaf.view(d);
            assertFalse(v.requiresGrad(), d + ": PyTorch's view.dtype is not differentiable");
            assertNull(v.viewBase(), d + ": not a view for autograd (Tensor._base is None)");
        }
    }

    @Test
    void aWriteThroughTheViewInvalidatesSavedTensorsAsInPyTorch() {
        Tensor leaf = Torch.randn(4).requiresGrad(true);
        Tensor e = leaf.exp();
        Tensor loss = e.sum();
        e.view(DType.INT32).fill_(7L);
        TorchException err = assertThrows(TorchException.class, loss::backward);
        assertTrue(err.getMessage().contains("modified by an inplace operation"), err.getMessage());
    }

    @Test
    void opsRunOnAReinterpretedStorage() {
        Tensor bytes = Torch.tensor(new long[] {0, 0, 128, 63, 0, 0, 0, 64}).to(DType.UINT8); // 1.0f, 2.0f
        Tensor floats = bytes.view(DType.FLOAT32);
        assertArrayEquals(new double[] {1, 2}, floats.toDoubleArray());
        assertEquals(3.0, floats.sum().item(), 0.0);
        assertArrayEquals(new double[] {2, 4}, floats.mul(2.0).toDoubleArray());
        floats.mul_(4.0);
        assertArrayEquals(new long[] {0, 0, 128, 64, 0, 0, 0, 65}, bytes.toLongArray());
    }

    @Test
    void metaTensorsGetTheGeometryAndTheChecks() {
        Tensor m = Torch.empty(new long[] {3, 8}, DType.FLOAT32, Device.META);
        Tensor v = m.view(DType.FLOAT64);
        assertEquals(Device.META, v.device());
        assertArrayEquals(new long[] {3, 4}, v.shape());
        assertArrayEquals(new long[] {4, 1}, v.stride());
        TorchException err = assertThrows(TorchException.class, () -> m.t().view(DType.INT8));
        assertEquals(
                "self.stride(-1) must be 1 to view Float as Char (different element sizes), but got 8",
                err.getMessage());
    }
}
