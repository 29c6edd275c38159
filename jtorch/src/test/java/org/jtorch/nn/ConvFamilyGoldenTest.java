package org.jtorch.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.functional.F;
import org.jtorch.testing.Golden;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The convolution/upsampling family against PyTorch 2.13 ({@code make_golden_conv_family.py}): {@code F.interpolate} in
 * every mode with size or scale factors (values and input gradients, and its errors), {@code nn.ConvTranspose1d/2d}
 * with output padding, groups, dilation and a requested output size (values, gradients of input, weight and bias,
 * repr), {@code F.pixel_shuffle}/{@code F.pixel_unshuffle}, and the reprs of {@code Upsample} and the pixel shuffles.
 */
class ConvFamilyGoldenTest {
    static Stream<Golden.Case> cases() {
        return Golden.cases("conv_family.json").stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesPyTorch(Golden.Case c) {
        switch (c.op()) {
            case "interpolate" -> Golden.check(c, List.of(), false, () -> interpolate(c));
            case "ConvTranspose1d", "ConvTranspose2d" -> {
                if (c.tensorArg(2).dtype() == DType.FLOAT32) checkFloat32(c, convTranspose(c));
                else Golden.check(c, List.of(), false, () -> convTranspose(c));
            }
            case "pixel_shuffle", "pixel_unshuffle" -> Golden.check(c, List.of(), false, () -> pixel(c));
            case "Upsample", "PixelShuffle", "PixelUnshuffle" -> assertEquals(c.kwarg("repr"), repr(c).toString());
            default -> throw new AssertionError("unknown op " + c.op());
        }
    }

    private static Object interpolate(Golden.Case c) {
        Tensor x = c.tensorArg(0);
        if (c.expectsError()) return interpolateCall(c, x);
        x.requiresGrad(true);
        Tensor out = interpolateCall(c, x);
        out.mul(c.tensorArg(1)).sum().backward();
        return List.of(out.detach(), x.grad());
    }

    private static Tensor interpolateCall(Golden.Case c, Tensor x) {
        return F.interpolate(
                x,
                longs(c.kwarg("size")),
                doubles(c.kwarg("scale_factor")),
                (String) c.kwarg("mode"),
                (Boolean) c.kwarg("align_corners"),
                (Boolean) c.kwarg("recompute_scale_factor"));
    }

    private static Object convTranspose(Golden.Case c) {
        long in = num(c, "in"), out = num(c, "out");
        ConvOptions o = ConvOptions.defaults()
                .stride(longs(c.kwarg("stride")))
                .padding(longs(c.kwarg("padding")))
                .outputPadding(longs(c.kwarg("output_padding")))
                .groups(num(c, "groups"))
                .dilation(longs(c.kwarg("dilation")))
                .bias(c.arg(1) != null);
        ConvTransposeNd m = c.op().equals("ConvTranspose1d")
                ? new ConvTranspose1d(in, out, longs(c.kwarg("kernel"))[0], o)
                : new ConvTranspose2d(in, out, longs(c.kwarg("kernel")), o);
        m.to(c.tensorArg(2).dtype());
        try (var _ = Torch.noGrad()) {
            m.weight().copy_(c.tensorArg(0));
            if (m.bias() != null) m.bias().copy_(c.tensorArg(1));
        }
        assertEquals(c.kwarg("repr"), m.toString());
        Tensor x = c.tensorArg(2).requiresGrad(true);
        long[] size = longs(c.kwarg("output_size"));
        Tensor y = size == null ? m.forward(x) : m.forward(x, size);
        y.mul(c.tensorArg(3)).sum().backward();
        List<Object> r =
                new ArrayList<>(List.of(y.detach(), x.grad(), m.weight().grad()));
        if (m.bias() != null) r.add(m.bias().grad());
        return r;
    }

    /**
     * A float32 convolution against PyTorch's float32 result: each element within 1e-5 of the largest magnitude of its
     * tensor. Its sums (tens to hundreds of products) round differently in each library, by a few float32 ulps of the
     * tensor's scale, which the elementwise float32 tolerance refuses near zero; a wrong tap or phase is off by the
     * scale itself.
     */
    @SuppressWarnings("unchecked")
    private static void checkFloat32(Golden.Case c, Object actual) {
        List<Object> got = (List<Object>) actual, expected = (List<Object>) c.out();
        assertEquals(expected.size(), got.size(), c.id());
        for (int i = 0; i < got.size(); i++) {
            Tensor e = Golden.tensor((java.util.Map<String, Object>) expected.get(i)), a = (Tensor) got.get(i);
            assertEquals(DType.FLOAT32, a.dtype(), c.id() + "[" + i + "]");
            assertEquals(java.util.Arrays.toString(e.shape()), java.util.Arrays.toString(a.shape()), c.id());
            double scale = e.abs().max().item(),
                    err = a.sub(e.to(DType.FLOAT32)).abs().max().item();
            org.junit.jupiter.api.Assertions.assertTrue(
                    err <= 1e-5 * scale, c.id() + "[" + i + "]: max error " + err + " against scale " + scale);
        }
    }

    private static Object pixel(Golden.Case c) {
        Tensor x = c.tensorArg(0).requiresGrad(true);
        long r = num(c, "factor");
        Tensor y = c.op().equals("pixel_shuffle") ? F.pixelShuffle(x, r) : F.pixelUnshuffle(x, r);
        y.mul(c.tensorArg(1)).sum().backward();
        return List.of(y.detach(), x.grad());
    }

    private static Module repr(Golden.Case c) {
        return switch (c.op()) {
            case "PixelShuffle" -> new PixelShuffle(num(c, "factor"));
            case "PixelUnshuffle" -> new PixelUnshuffle(num(c, "factor"));
            default ->
                new Upsample(
                        longs(c.kwarg("size")),
                        doubles(c.kwarg("scale_factor")),
                        (String) c.kwarg("mode"),
                        (Boolean) c.kwarg("align_corners"),
                        null);
        };
    }

    private static long num(Golden.Case c, String name) {
        return ((Number) c.kwarg(name)).longValue();
    }

    /** An int or a list of ints as long[]; null stays null. */
    private static long[] longs(Object v) {
        if (v == null) return null;
        if (v instanceof Number n) return new long[] {n.longValue()};
        return ((List<?>) v).stream().mapToLong(x -> ((Number) x).longValue()).toArray();
    }

    private static double[] doubles(Object v) {
        if (v == null) return null;
        if (v instanceof Number n) return new double[] {n.doubleValue()};
        return ((List<?>) v)
                .stream().mapToDouble(x -> ((Number) x).doubleValue()).toArray();
    }
}
