package org.jtorch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.jtorch.ops.Creation;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;
import org.jtorch.testing.Json;
import org.jtorch.testing.Views;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code Tensor.toString()} against {@code repr(tensor)} of real PyTorch: the 43 "repr" cases of the golden fixture
 * {@code golden/core.json} (PyTorch 2.13, whose printing code matches 2.15 for all of them), plus further strings
 * copied from PyTorch 1.13's output for meta and empty tensors, complex non-finite values, nested summarisation, suffix
 * wrapping and the default-dtype rule.
 */
class TensorFormatterTest {

    // ================================================================================================
    // Golden fixture

    static Stream<Arguments> reprCases() throws IOException {
        List<Arguments> cases = new ArrayList<>();
        try (InputStream in = TensorFormatterTest.class.getResourceAsStream("/golden/core.json");
                BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (!line.contains("\"op\":\"repr\"")) continue;
                String json = line.endsWith(",") ? line.substring(0, line.length() - 1) : line;
                @SuppressWarnings("unchecked")
                Map<String, Object> c = (Map<String, Object>) Json.parse(json);
                cases.add(Arguments.of(c.get("id"), c));
            }
        }
        return cases.stream();
    }

    @Test
    void fixtureHasAllReprCases() throws IOException {
        assertEquals(43, reprCases().count());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reprCases")
    @SuppressWarnings("unchecked")
    void matchesPyTorchRepr(String id, Map<String, Object> c) {
        Tensor t = fromFixture((Map<String, Object>) ((List<Object>) c.get("args")).get(0));
        String expected = (String) ((Map<String, Object>) c.get("out")).get("string");
        assertEquals(expected, t.toString(), id);
    }

    /** Builds a fixture tensor T: row-major data of the given dtype and shape, optionally transposed. */
    @SuppressWarnings("unchecked")
    private static Tensor fromFixture(Map<String, Object> spec) {
        DType dtype = dtypeNamed((String) spec.get("dtype"));
        List<Object> data = (List<Object>) spec.get("data");
        long[] shape = ((List<Object>) spec.get("shape"))
                .stream().mapToLong(o -> (Long) o).toArray();
        Tensor flat;
        if (dtype == DType.BOOL) {
            boolean[] b = new boolean[data.size()];
            for (int i = 0; i < b.length; i++) b[i] = (Boolean) data.get(i);
            flat = Torch.tensor(b);
        } else if (dtype.isIntegral(false)) {
            flat = Torch.tensor(data.stream().mapToLong(o -> (Long) o).toArray())
                    .to(dtype);
        } else if (dtype == DType.COMPLEX64) {
            float[] f = new float[data.size()];
            for (int i = 0; i < f.length; i++) f[i] = (float) number(data.get(i));
            flat = Creation.fromStorage(Storage.wrap(f), new long[] {f.length / 2}, dtype);
        } else if (dtype == DType.COMPLEX128) {
            double[] d = data.stream().mapToDouble(TensorFormatterTest::number).toArray();
            flat = Creation.fromStorage(Storage.wrap(d), new long[] {d.length / 2}, dtype);
        } else {
            flat = Torch.tensor(data.stream()
                            .mapToDouble(TensorFormatterTest::number)
                            .toArray())
                    .to(dtype);
        }
        Tensor t = Creation.fromStorage(flat.impl().storage(), shape, dtype);
        List<Object> tr = (List<Object>) spec.get("transpose");
        return tr == null ? t : transpose(t, ((Long) tr.get(0)).intValue(), ((Long) tr.get(1)).intValue());
    }

    private static double number(Object o) {
        return switch (o) {
            case String s when s.equals("nan") -> Double.NaN;
            case String s when s.equals("inf") -> Double.POSITIVE_INFINITY;
            case String s when s.equals("-inf") -> Double.NEGATIVE_INFINITY;
            case Number n -> n.doubleValue();
            default -> throw new IllegalArgumentException("not a number: " + o);
        };
    }

    private static DType dtypeNamed(String name) {
        for (DType d : DType.values()) {
            if (d.pyName().equals(name)) return d;
        }
        throw new IllegalArgumentException("unknown dtype " + name);
    }

    /** A transposed view (no copy), so the printer sees non-contiguous strides. */
    private static Tensor transpose(Tensor t, int d0, int d1) {
        long[] shape = t.shape(), strides = t.stride();
        long s = shape[d0];
        shape[d0] = shape[d1];
        shape[d1] = s;
        long st = strides[d0];
        strides[d0] = strides[d1];
        strides[d1] = st;
        return Views.of(t, t.storageOffset(), shape, strides);
    }

    private static Tensor floats(double[] values, long... shape) {
        return Creation.fromStorage(
                Torch.tensor(values).to(DType.FLOAT32).impl().storage(), shape, DType.FLOAT32);
    }

    private static Tensor arangeLong(int n, long... shape) {
        long[] v = new long[n];
        for (int i = 0; i < n; i++) v[i] = i;
        return Creation.fromStorage(Storage.wrap(v), shape, DType.INT64);
    }

    // ================================================================================================
    // Meta and empty tensors (expected strings from PyTorch 1.13's repr)

    @Test
    void metaTensorsPrintSizeAndNonDefaultDtype() {
        assertEquals(
                "tensor(..., device='meta', size=(2, 3))",
                Tensor.of(TensorImpl.meta(new long[] {2, 3}, DType.FLOAT32)).toString());
        // On meta (and empty) tensors int64 and bool are not implied by the values, so they are printed.
        assertEquals(
                "tensor(..., device='meta', size=(), dtype=torch.int64)",
                Tensor.of(TensorImpl.meta(new long[0], DType.INT64)).toString());
        assertEquals(
                "tensor(..., device='meta', size=(5,), dtype=torch.bool)",
                Tensor.of(TensorImpl.meta(new long[] {5}, DType.BOOL)).toString());
    }

    @Test
    void emptyTensorsPrintSizeUnless1dAndDtypeUnlessDefaultFloat() {
        assertEquals(
                "tensor([], dtype=torch.bool)",
                Tensor.of(TensorImpl.empty(new long[] {0}, DType.BOOL)).toString());
        assertEquals(
                "tensor([], size=(0, 3), dtype=torch.int32)",
                Tensor.of(TensorImpl.empty(new long[] {0, 3}, DType.INT32)).toString());
    }

    // ================================================================================================
    // Values and styles

    @Test
    void complexPartsHaveTheirOwnStyleAndNonFiniteValues() {
        Tensor t = Creation.fromStorage(
                Storage.wrap(new float[] {Float.NaN, 1, 1, Float.POSITIVE_INFINITY, -0f, -0f}),
                new long[] {3},
                DType.COMPLEX64);
        assertEquals("tensor([nan+1.j, 1.+infj, -0.-0.j])", t.toString());
        Tensor sci = Creation.fromStorage(
                Storage.wrap(new float[] {1, 2, -3.25f, 1e-5f, 0, 0, 1e6f, -1}), new long[] {2, 2}, DType.COMPLEX64);
        assertEquals(
                "tensor([[ 1.0000e+00+2.0000e+00j, -3.2500e+00+1.0000e-05j],\n"
                        + "        [ 0.0000e+00+0.0000e+00j,  1.0000e+06-1.0000e+00j]])",
                sci.toString());
    }

    @Test
    void roundsTheExactBinaryValueHalfToEven() {
        // float32 1.00005 lies just below the tie and 2.00015 just below too; 0.125 and 0.375 are exact.
        assertEquals(
                "tensor([0.1250, 0.3750, 1.0000, 2.0001])",
                floats(new double[] {0.125, 0.375, 1.00005, 2.00015}, 4).toString());
        assertEquals(
                "tensor([ 0.5000,  1.5000,  2.5000, -0.5000])",
                floats(new double[] {0.5, 1.5, 2.5, -0.5}, 4).toString());
        assertEquals(
                "tensor([nan, nan])",
                floats(new double[] {Double.NaN, Double.NaN}, 2).toString());
        assertEquals(
                "tensor([1.5000,    inf])",
                floats(new double[] {1.5, Double.POSITIVE_INFINITY}, 2).toString());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                // value | precision | Python "{:.Nf}" | Python "{:.Ne}"
                "0.15 | 1 | 0.1 | 1.5e-01",
                "2.675 | 2 | 2.67 | 2.67e+00",
                "999995.0 | 4 | 999995.0000 | 1.0000e+06",
                "1e100 | 4 | "
                        + "1000000000000000015902891109759918046836080856394528138978"
                        + "1327557747838772170381060813469985856815104.0000 | 1.0000e+100",
                "5e-324 | 4 | 0.0000 | 4.9407e-324",
                "-0.0 | 4 | -0.0000 | -0.0000e+00",
                "-0.00001 | 4 | -0.0000 | -1.0000e-05",
                "1.00005 | 4 | 1.0001 | 1.0001e+00",
                "-2.5 | 0 | -2 | -2e+00",
                "123456789.0 | 4 | 123456789.0000 | 1.2346e+08",
            })
    void pythonFloatFormatting(double v, int precision, String fixed, String sci) {
        assertEquals(fixed, PyFloatFormat.fixed(v, precision));
        assertEquals(sci, PyFloatFormat.scientific(v, precision));
    }

    @Test
    void reducedPrecisionDtypesPrintTheirSuffix() {
        assertEquals(
                "tensor([1., 2.], dtype=torch.float16)",
                Torch.tensor(new double[] {1, 2}).to(DType.FLOAT16).toString());
        Tensor bf = Creation.fromStorage(
                Torch.tensor(new double[] {2.5}).to(DType.BFLOAT16).impl().storage(), new long[0], DType.BFLOAT16);
        assertEquals("tensor(2.5000, dtype=torch.bfloat16)", bf.toString());
    }

    @Test
    void uint64PrintsUnsigned() {
        Tensor t = Creation.fromStorage(Storage.wrap(new long[] {-1L, 7}), new long[] {2}, DType.UINT64);
        assertEquals("tensor([18446744073709551615,                    7], dtype=torch.uint64)", t.toString());
    }

    // ================================================================================================
    // Layout: views, nested summarisation, suffix wrapping

    @Test
    void nonContiguousViews() {
        Tensor t3 = transpose(floats(IntStream.range(0, 24).asDoubleStream().toArray(), 2, 3, 4), 0, 2);
        assertEquals(
                "tensor([[[ 0., 12.],\n         [ 4., 16.],\n         [ 8., 20.]],\n\n"
                        + "        [[ 1., 13.],\n         [ 5., 17.],\n         [ 9., 21.]],\n\n"
                        + "        [[ 2., 14.],\n         [ 6., 18.],\n         [10., 22.]],\n\n"
                        + "        [[ 3., 15.],\n         [ 7., 19.],\n         [11., 23.]]])",
                t3.toString());
        Tensor offset = Views.of(arangeLong(10, 10), 2, new long[] {2, 2}, new long[] {4, 1});
        assertEquals("tensor([[2, 3],\n        [6, 7]])", offset.toString());
    }

    @Test
    void summarisesEveryLongDimension() {
        // 2 x 7 x 80 = 1120 elements: dim 0 (2) is printed whole, dims 1 and 2 are cut to 3 + 3.
        assertEquals(
                "tensor([[[   0,    1,    2,  ...,   77,   78,   79],\n"
                        + "         [  80,   81,   82,  ...,  157,  158,  159],\n"
                        + "         [ 160,  161,  162,  ...,  237,  238,  239],\n"
                        + "         ...,\n"
                        + "         [ 320,  321,  322,  ...,  397,  398,  399],\n"
                        + "         [ 400,  401,  402,  ...,  477,  478,  479],\n"
                        + "         [ 480,  481,  482,  ...,  557,  558,  559]],\n\n"
                        + "        [[ 560,  561,  562,  ...,  637,  638,  639],\n"
                        + "         [ 640,  641,  642,  ...,  717,  718,  719],\n"
                        + "         [ 720,  721,  722,  ...,  797,  798,  799],\n"
                        + "         ...,\n"
                        + "         [ 880,  881,  882,  ...,  957,  958,  959],\n"
                        + "         [ 960,  961,  962,  ..., 1037, 1038, 1039],\n"
                        + "         [1040, 1041, 1042,  ..., 1117, 1118, 1119]]])",
                arangeLong(1120, 2, 7, 80).toString());
    }

    @Test
    void hugeBroadcastViewReadsOnlyPrintedElements() {
        // 10^8 logical elements over 10^4 stored ones (stride 0 rows, like expand): materialising the
        // tensor would need 800 MB of doubles; the printer reads 36 elements.
        double[] row = IntStream.range(0, 10_000).asDoubleStream().toArray();
        Tensor base = floats(row, 10_000);
        Tensor t = Views.of(base, 0, new long[] {10_000, 10_000}, new long[] {0, 1});
        String line = "[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 9.9970e+03, 9.9980e+03,\n         9.9990e+03]";
        String sep = ",\n        ";
        assertEquals(
                "tensor([" + line + sep + line + sep + line + sep + "..." + sep + line + sep + line + sep + line + "])",
                t.toString());
    }

    @Test
    void suffixMovesToNewLineWhenLineIsFull() {
        int[] v = new int[30];
        Arrays.fill(v, 1_000_000);
        Tensor t = Torch.asarray(v);
        String row = "1000000, 1000000, 1000000, 1000000, 1000000, 1000000, 1000000, 1000000";
        assertEquals(
                "tensor([" + row + ",\n        " + row + ",\n        " + row + ",\n        "
                        + "1000000, 1000000, 1000000, 1000000, 1000000, 1000000],\n       dtype=torch.int32)",
                t.toString());
    }

    @Test
    void dtypeSuffixFollowsTheDefaultDtype() {
        DType saved = Torch.getDefaultDtype();
        try {
            Torch.setDefaultDtype(DType.FLOAT64);
            assertEquals(
                    "tensor([1.5000], dtype=torch.float32)",
                    floats(new double[] {1.5}, 1).toString());
            assertEquals("tensor([1.5000])", Torch.tensor(new double[] {1.5}).toString());
            Tensor c128 = Creation.fromStorage(Storage.wrap(new double[] {1, 1}), new long[] {1}, DType.COMPLEX128);
            Tensor c64 = Creation.fromStorage(Storage.wrap(new float[] {1, 1}), new long[] {1}, DType.COMPLEX64);
            assertEquals("tensor([1.+1.j])", c128.toString());
            assertEquals("tensor([1.+1.j], dtype=torch.complex64)", c64.toString());
            assertEquals(
                    "tensor([], dtype=torch.float32)",
                    Tensor.of(TensorImpl.empty(new long[] {0}, DType.FLOAT32)).toString());
            assertEquals(
                    "tensor([])",
                    Tensor.of(TensorImpl.empty(new long[] {0}, DType.FLOAT64)).toString());
        } finally {
            Torch.setDefaultDtype(saved);
        }
    }
}
