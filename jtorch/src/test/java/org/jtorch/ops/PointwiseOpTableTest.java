package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.internal.Shapes;
import org.jtorch.testing.OpInfo;
import org.jtorch.testing.PointwiseTable;
import org.jtorch.testing.Views;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The generic sweep over every pointwise op: for each op × dtype × sample, the meta device gives the shape and dtype
 * the CPU gives, a non-contiguous input gives the same values as its contiguous copy, and a dtype the op does not
 * support is refused identically on both devices.
 */
class PointwiseOpTableTest {
    private static final List<DType> SWEEP = List.of(
            DType.BOOL,
            DType.UINT8,
            DType.INT8,
            DType.INT16,
            DType.INT32,
            DType.INT64,
            DType.FLOAT16,
            DType.BFLOAT16,
            DType.FLOAT32,
            DType.FLOAT64,
            DType.COMPLEX64,
            DType.COMPLEX128);

    static List<OpInfo> table() {
        List<OpInfo> infos = new ArrayList<>();
        for (OpDef op : PointwiseTable.ops()) {
            int tensors = PointwiseTable.tensorArgs(op);
            infos.add(new OpInfo(op, tensors, ts -> op.call1(PointwiseTable.args(op, (Object[]) ts)), SWEEP));
        }
        return infos;
    }

    private static Tensor sample(long[] shape, DType dtype, Device device, int seed) {
        if (device == Device.META) return Torch.zeros(shape, dtype, Device.META);
        long n = Shapes.numel(shape);
        double[] v = new double[(int) n];
        for (int i = 0; i < n; i++)
            v[i] = ((i * 7 + seed * 3) % 11) / 4.0 - 1.1; // includes negatives and values in (-1, 1)
        if (shape.length == 0) return Torch.scalarTensor(v[0], DType.FLOAT64).to(dtype);
        return Torch.tensor(v, DType.FLOAT64, shape).to(dtype);
    }

    /**
     * The same values laid out transposed: a non-contiguous view over a buffer holding the transpose. Complex samples
     * are checked contiguous only (the sample builder is real-valued).
     */
    private static Tensor nonContiguous(Tensor t) {
        if (t.dim() < 2 || t.isComplex()) return t;
        long[] s = t.shape();
        int a = s.length - 2, b = s.length - 1;
        long[] swapped = s.clone();
        swapped[a] = s[b];
        swapped[b] = s[a];
        double[] src = t.toDoubleArray(), dst = new double[src.length];
        long rows = s[a], cols = s[b], outer = t.numel() / Math.max(1, rows * cols);
        for (long o = 0; o < outer; o++) {
            for (long i = 0; i < rows; i++) {
                for (long j = 0; j < cols; j++)
                    dst[(int) ((o * cols + j) * rows + i)] = src[(int) ((o * rows + i) * cols + j)];
            }
        }
        Tensor base = Torch.tensor(dst, DType.FLOAT64, swapped).to(t.dtype());
        long[] strides = base.stride();
        long tmp = strides[a];
        strides[a] = strides[b];
        strides[b] = tmp;
        return Views.of(base, 0, s, strides);
    }

    @TestFactory
    Stream<DynamicTest> metaMatchesCpuAndLayoutDoesNotMatter() {
        List<DynamicTest> tests = new ArrayList<>();
        for (OpInfo info : table()) {
            for (DType dtype : info.dtypes()) {
                for (OpInfo.Sample s : OpInfo.pointwiseSamples(info.arity())) {
                    tests.add(DynamicTest.dynamicTest(
                            info.name() + "/" + dtype.pyName() + "/" + s.label(), () -> check(info, dtype, s)));
                }
            }
        }
        return tests.stream();
    }

    private static void check(OpInfo info, DType dtype, OpInfo.Sample s) {
        int k = info.arity();
        Tensor[] cpu = new Tensor[k], meta = new Tensor[k];
        for (int i = 0; i < k; i++) {
            cpu[i] = sample(s.shapes()[i], dtype, Device.CPU, i);
            meta[i] = sample(s.shapes()[i], dtype, Device.META, i);
        }
        Tensor real;
        try {
            real = info.call().apply(cpu);
        } catch (RuntimeException refused) {
            if (dataDependent(refused)) return; // the meta device cannot see values
            RuntimeException onMeta = assertThrows(
                    RuntimeException.class,
                    () -> info.call().apply(meta),
                    "meta accepted what CPU refused: " + refused.getMessage());
            assertEquals(refused.getClass(), onMeta.getClass());
            return;
        }
        Tensor fake = info.call().apply(meta);
        assertEquals(Device.META, fake.device());
        assertArrayEquals(real.shape(), fake.shape(), "shape");
        assertEquals(real.dtype(), fake.dtype(), "dtype");
        Tensor[] strided = new Tensor[k];
        boolean any = false;
        for (int i = 0; i < k; i++) {
            strided[i] = nonContiguous(cpu[i]);
            any |= strided[i] != cpu[i];
        }
        if (any) {
            double[] expected = real.toDoubleArray(),
                    got = info.call().apply(strided).toDoubleArray();
            assertEquals(expected.length, got.length);
            for (int i = 0; i < got.length; i++) {
                assertTrue(
                        Double.compare(expected[i], got[i]) == 0 || expected[i] == got[i],
                        "non-contiguous result differs at " + i + ": " + expected[i] + " vs " + got[i]);
            }
        }
    }

    /** Errors that depend on values, not shapes or dtypes: integer division by zero. */
    private static boolean dataDependent(RuntimeException e) {
        return String.valueOf(e.getMessage()).contains("ZeroDivisionError");
    }

    @Test
    void tableCoversEveryPointwiseOp() {
        Set<String> names = new HashSet<>();
        for (OpInfo info : table()) names.add(info.name());
        assertTrue(
                names.containsAll(Set.of(
                        "add",
                        "sub",
                        "mul",
                        "div",
                        "exp",
                        "log",
                        "sigmoid",
                        "relu",
                        "gelu",
                        "eq",
                        "lt",
                        "bitwise_and",
                        "isnan",
                        "nan_to_num",
                        "angle",
                        "maximum",
                        "fmin")),
                names.toString());
        assertTrue(EnumSet.copyOf(SWEEP).size() == SWEEP.size());
    }
}
