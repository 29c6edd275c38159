package org.jtorch.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.ValuesIndices;
import org.jtorch.nn.functional.F;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 3-d convolutions, 1-d and LP pooling, max unpooling and fold/unfold against PyTorch 2.13
 * ({@code make_golden_spatial.py}): values, the gradients of every differentiated input, PyTorch's errors, and the
 * modules' reprs ({@code nn.Conv3d} with each padding mode, {@code nn.ConvTranspose3d}, the pools, {@code Fold}).
 */
class SpatialGoldenTest {
    static Stream<Golden.Case> cases() {
        return Golden.cases("spatial.json").stream();
    }

    @Test
    void fixtureIsLoaded() {
        assertEquals(true, Golden.cases("spatial.json").size() >= 100);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesPyTorch(Golden.Case c) {
        if (c.op().endsWith("Repr")) {
            assertEquals(
                    c.kwarg("repr"),
                    module(c.op().replace("Repr", ""), c.kwargs()).toString());
            return;
        }
        Golden.check(c, List.of(), false, () -> run(c));
    }

    private static Object run(Golden.Case c) {
        List<Long> grad = ((List<?>) c.kwargs().get("grad"))
                .stream().map(v -> ((Number) v).longValue()).toList();
        int inputs = c.argCount() - (grad.isEmpty() ? 0 : 1);
        List<Tensor> args = new ArrayList<>();
        for (int i = 0; i < inputs; i++) {
            Tensor t = c.tensorArg(i);
            args.add(grad.contains((long) i) ? t.requiresGrad(true) : t);
        }
        Object result = call(c, args);
        List<Tensor> outs =
                result instanceof ValuesIndices vi ? List.of(vi.values(), vi.indices()) : List.of((Tensor) result);
        if (c.expectsError()) return result;
        List<Object> r = new ArrayList<>();
        for (Tensor o : outs) r.add(o.detach());
        if (!grad.isEmpty()) {
            outs.get(0).mul(c.tensorArg(inputs)).sum().backward();
            for (long i : grad) r.add(args.get((int) i).grad());
        }
        return r;
    }

    private static Object call(Golden.Case c, List<Tensor> t) {
        Tensor x = t.get(0);
        Tensor second = t.size() > 1 ? t.get(1) : null, third = t.size() > 2 ? t.get(2) : null;
        return switch (c.op()) {
            case "conv3d" -> {
                Object padding = c.kwarg("padding");
                yield padding instanceof String s
                        ? F.conv3d(
                                x, second, third, ints(c, "stride", 1), s, ints(c, "dilation", 1), num(c, "groups", 1))
                        : F.conv3d(
                                x,
                                second,
                                third,
                                ints(c, "stride", 1),
                                ints(c, "padding", 0),
                                ints(c, "dilation", 1),
                                num(c, "groups", 1));
            }
            case "conv_transpose3d" ->
                F.convTranspose3d(
                        x,
                        second,
                        third,
                        ints(c, "stride", 1),
                        ints(c, "padding", 0),
                        ints(c, "output_padding", 0),
                        num(c, "groups", 1),
                        ints(c, "dilation", 1));
            case "Conv3d", "ConvTranspose3d" -> {
                @SuppressWarnings("unchecked")
                ConvNd m =
                        (ConvNd) module(c.op(), (Map<String, Object>) c.kwargs().get("module"));
                m.to(DType.FLOAT64);
                m.registerParameter("weight", second);
                if (third != null) m.registerParameter("bias", third);
                yield m.forward(x);
            }
            case "max_pool1d" -> {
                if (c.kwargs().get("kernel_size") instanceof List<?>) {
                    yield org.jtorch.ops.Pool1dOps.MAX_POOL1D.call1(
                            x, ints(c, "kernel_size", 0), new long[0], new long[] {0}, new long[] {1}, false);
                }
                Long stride = c.has("stride") ? num(c, "stride", 0) : null;
                long k = num(c, "kernel_size", 0);
                boolean ceil = Boolean.TRUE.equals(c.kwarg("ceil_mode"));
                long p = num(c, "padding", 0), d = num(c, "dilation", 1);
                yield Boolean.TRUE.equals(c.kwarg("return_indices"))
                        ? F.maxPool1dWithIndices(x, k, stride, p, d, ceil)
                        : F.maxPool1d(x, k, stride, p, d, ceil);
            }
            case "avg_pool1d" -> {
                if (c.kwargs().get("kernel_size") instanceof List<?>) {
                    yield org.jtorch.ops.Pool1dOps.AVG_POOL1D.call1(
                            x, ints(c, "kernel_size", 0), new long[0], new long[] {0}, false, true);
                }
                yield F.avgPool1d(
                        x,
                        num(c, "kernel_size", 0),
                        c.has("stride") ? num(c, "stride", 0) : null,
                        num(c, "padding", 0),
                        Boolean.TRUE.equals(c.kwarg("ceil_mode")),
                        !Boolean.FALSE.equals(c.kwarg("count_include_pad")));
            }
            case "adaptive_avg_pool1d" ->
                c.kwargs().get("output_size") instanceof List<?>
                        ? org.jtorch.ops.Pool1dOps.ADAPTIVE_AVG_POOL1D.call1(x, ints(c, "output_size", 0))
                        : F.adaptiveAvgPool1d(x, num(c, "output_size", 0));
            case "lp_pool1d" ->
                F.lpPool1d(
                        x,
                        Golden.number(c.kwarg("norm_type")),
                        num(c, "kernel_size", 0),
                        c.has("stride") ? num(c, "stride", 0) : null,
                        Boolean.TRUE.equals(c.kwarg("ceil_mode")));
            case "lp_pool2d" ->
                F.lpPool2d(
                        x,
                        Golden.number(c.kwarg("norm_type")),
                        ints(c, "kernel_size", 0),
                        c.has("stride") ? ints(c, "stride", 0) : null,
                        Boolean.TRUE.equals(c.kwarg("ceil_mode")));
            case "max_pool2d" -> {
                long[] k = ints(c, "kernel_size", 0), s = c.has("stride") ? ints(c, "stride", 0) : null;
                long[] p = ints(c, "padding", 0), d = ints(c, "dilation", 1);
                boolean ceil = Boolean.TRUE.equals(c.kwarg("ceil_mode"));
                yield Boolean.TRUE.equals(c.kwarg("return_indices"))
                        ? F.maxPool2dWithIndices(x, k, s, p, d, ceil)
                        : F.maxPool2d(x, k, s, p, d, ceil);
            }
            case "max_unpool1d" ->
                F.maxUnpool1d(
                        x,
                        second,
                        num(c, "kernel_size", 0),
                        c.has("stride") ? num(c, "stride", 0) : null,
                        num(c, "padding", 0),
                        c.has("output_size") ? ints(c, "output_size", 0) : null);
            case "max_unpool2d" ->
                F.maxUnpool2d(
                        x,
                        second,
                        ints(c, "kernel_size", 0),
                        c.has("stride") ? ints(c, "stride", 0) : null,
                        ints(c, "padding", 0),
                        c.has("output_size") ? ints(c, "output_size", 0) : null);
            case "max_unpool3d" ->
                F.maxUnpool3d(
                        x,
                        second,
                        ints(c, "kernel_size", 0),
                        c.has("stride") ? ints(c, "stride", 0) : null,
                        ints(c, "padding", 0),
                        c.has("output_size") ? ints(c, "output_size", 0) : null);
            case "unfold" ->
                F.unfold(
                        x,
                        ints(c, "kernel_size", 0),
                        ints(c, "dilation", 1),
                        ints(c, "padding", 0),
                        ints(c, "stride", 1));
            case "fold" ->
                F.fold(
                        x,
                        ints(c, "output_size", 0),
                        ints(c, "kernel_size", 0),
                        ints(c, "dilation", 1),
                        ints(c, "padding", 0),
                        ints(c, "stride", 1));
            case "grid_sample" ->
                F.gridSample(
                        x,
                        second,
                        c.has("mode") ? (String) c.kwarg("mode") : "bilinear",
                        c.has("padding_mode") ? (String) c.kwarg("padding_mode") : "zeros",
                        (Boolean) c.kwarg("align_corners"));
            case "affine_grid" -> F.affineGrid(x, ints(c, "size", 0), (Boolean) c.kwarg("align_corners"));
            default -> throw new AssertionError("unknown op " + c.op());
        };
    }

    /** The module {@code name} built from PyTorch's constructor arguments. */
    private static Module module(String name, Map<String, Object> kw) {
        return switch (name) {
            case "Conv3d", "ConvTranspose3d" -> {
                ConvOptions o = ConvOptions.defaults()
                        .stride(ints(kw, "stride", 1))
                        .padding(ints(kw, "padding", 0))
                        .dilation(ints(kw, "dilation", 1))
                        .groups(num(kw, "groups", 1))
                        .bias(!Boolean.FALSE.equals(kw.get("bias")));
                if (kw.containsKey("padding_mode")) o = o.paddingMode((String) kw.get("padding_mode"));
                if (kw.containsKey("output_padding")) o = o.outputPadding(ints(kw, "output_padding", 0));
                long in = num(kw, "in", 0), out = num(kw, "out", 0);
                yield name.equals("Conv3d")
                        ? new Conv3d(in, out, ints(kw, "kernel", 0), o)
                        : new ConvTranspose3d(in, out, ints(kw, "kernel", 0), o);
            }
            case "MaxPool1d" ->
                new MaxPool1d(
                        num(kw, "kernel_size", 0),
                        kw.containsKey("stride") ? num(kw, "stride", 0) : null,
                        num(kw, "padding", 0),
                        num(kw, "dilation", 1),
                        Boolean.TRUE.equals(kw.get("ceil_mode")));
            case "AvgPool1d" ->
                new AvgPool1d(
                        num(kw, "kernel_size", 0),
                        kw.containsKey("stride") ? num(kw, "stride", 0) : null,
                        num(kw, "padding", 0),
                        false,
                        true);
            case "AdaptiveAvgPool1d" -> new AdaptiveAvgPool1d(num(kw, "output_size", 0));
            case "LPPool1d" ->
                new LPPool1d(
                        Golden.number(kw.get("norm_type")),
                        num(kw, "kernel_size", 0),
                        kw.containsKey("stride") ? num(kw, "stride", 0) : null,
                        Boolean.TRUE.equals(kw.get("ceil_mode")));
            case "LPPool2d" ->
                new LPPool2d(
                        Golden.number(kw.get("norm_type")),
                        ints(kw, "kernel_size", 0),
                        kw.containsKey("stride") ? ints(kw, "stride", 0) : null,
                        false);
            case "MaxUnpool1d" ->
                new MaxUnpool1d(
                        ints(kw, "kernel_size", 0),
                        kw.containsKey("stride") ? ints(kw, "stride", 0) : null,
                        ints(kw, "padding", 0));
            case "MaxUnpool2d" ->
                new MaxUnpool2d(
                        ints(kw, "kernel_size", 0),
                        kw.containsKey("stride") ? ints(kw, "stride", 0) : null,
                        ints(kw, "padding", 0));
            case "MaxUnpool3d" ->
                new MaxUnpool3d(
                        ints(kw, "kernel_size", 0),
                        kw.containsKey("stride") ? ints(kw, "stride", 0) : null,
                        ints(kw, "padding", 0));
            case "Unfold" ->
                new Unfold(
                        ints(kw, "kernel_size", 0),
                        ints(kw, "dilation", 1),
                        ints(kw, "padding", 0),
                        ints(kw, "stride", 1));
            case "Fold" -> new Fold(ints(kw, "output_size", 0), ints(kw, "kernel_size", 0));
            default -> throw new AssertionError("unknown module " + name);
        };
    }

    private static long num(Golden.Case c, String name, long absent) {
        return num(c.kwargs(), name, absent);
    }

    private static long num(Map<String, Object> kw, String name, long absent) {
        Object v = kw.get(name);
        return v == null ? absent : ((Number) v).longValue();
    }

    private static long[] ints(Golden.Case c, String name, long absent) {
        return ints(c.kwargs(), name, absent);
    }

    /** An int or a list of ints as long[] ({@code absent} when missing). */
    private static long[] ints(Map<String, Object> kw, String name, long absent) {
        Object v = kw.get(name);
        if (v == null) return new long[] {absent};
        if (v instanceof Number n) return new long[] {n.longValue()};
        return ((List<?>) v).stream().mapToLong(x -> ((Number) x).longValue()).toArray();
    }
}
