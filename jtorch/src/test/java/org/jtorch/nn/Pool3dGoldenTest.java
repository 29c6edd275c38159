package org.jtorch.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.ValuesIndices;
import org.jtorch.nn.functional.F;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * 3-d pooling, adaptive max pooling and LP pooling in 3-d against PyTorch 2.13 ({@code make_golden_pool3d.py}): values,
 * indices, the gradients of the input, PyTorch's errors, the modules' outputs and reprs.
 */
class Pool3dGoldenTest {
    static Stream<Golden.Case> cases() {
        return Golden.cases("pool3d.json").stream();
    }

    @Test
    void fixtureIsLoaded() {
        assertTrue(Golden.cases("pool3d.json").size() >= 80);
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
        Tensor x = c.tensorArg(0);
        if (!grad.isEmpty()) x.requiresGrad(true);
        Object result = call(c, x);
        if (c.expectsError()) return result;
        List<Tensor> outs =
                result instanceof ValuesIndices vi ? List.of(vi.values(), vi.indices()) : List.of((Tensor) result);
        List<Object> r = new ArrayList<>();
        for (Tensor o : outs) r.add(o.detach());
        if (!grad.isEmpty()) {
            outs.get(0).mul(c.tensorArg(c.argCount() - 1)).sum().backward();
            r.add(x.grad());
        }
        return r;
    }

    private static Object call(Golden.Case c, Tensor x) {
        boolean indices = Boolean.TRUE.equals(c.kwarg("return_indices"));
        boolean ceil = Boolean.TRUE.equals(c.kwarg("ceil_mode"));
        return switch (c.op()) {
            case "max_pool3d" -> {
                long[] k = ints(c.kwargs(), "kernel_size", 0);
                long[] s = c.has("stride") ? ints(c.kwargs(), "stride", 0) : null;
                long[] p = ints(c.kwargs(), "padding", 0), d = ints(c.kwargs(), "dilation", 1);
                yield indices ? F.maxPool3dWithIndices(x, k, s, p, d, ceil) : F.maxPool3d(x, k, s, p, d, ceil);
            }
            case "avg_pool3d" ->
                F.avgPool3d(
                        x,
                        ints(c.kwargs(), "kernel_size", 0),
                        c.has("stride") ? ints(c.kwargs(), "stride", 0) : null,
                        ints(c.kwargs(), "padding", 0),
                        ceil,
                        !Boolean.FALSE.equals(c.kwarg("count_include_pad")),
                        c.has("divisor_override") ? num(c.kwargs(), "divisor_override") : null);
            case "adaptive_avg_pool3d" -> {
                Long[] size = sizes(c.kwargs());
                yield size.length == 1
                        ? F.adaptiveAvgPool3d(x, size[0])
                        : F.adaptiveAvgPool3d(x, size[0], size[1], size[2]);
            }
            case "adaptive_max_pool3d" -> {
                Long[] size = sizes(c.kwargs());
                if (size.length == 1)
                    yield indices ? F.adaptiveMaxPool3dWithIndices(x, size[0]) : F.adaptiveMaxPool3d(x, size[0]);
                yield indices
                        ? new AdaptiveMaxPool3d(size[0], size[1], size[2]).forwardWithIndices(x)
                        : F.adaptiveMaxPool3d(x, size[0], size[1], size[2]);
            }
            case "adaptive_max_pool2d" -> {
                Long[] size = sizes(c.kwargs());
                if (size.length == 1)
                    yield indices ? F.adaptiveMaxPool2dWithIndices(x, size[0]) : F.adaptiveMaxPool2d(x, size[0]);
                yield indices
                        ? new AdaptiveMaxPool2d(size[0], size[1]).forwardWithIndices(x)
                        : F.adaptiveMaxPool2d(x, size[0], size[1]);
            }
            case "adaptive_max_pool1d" -> {
                if (c.kwargs().get("output_size") instanceof List<?>) {
                    yield org.jtorch.ops.AdaptiveMaxPoolOps.ADAPTIVE_MAX_POOL1D.call(
                            x, ints(c.kwargs(), "output_size", 0));
                }
                long size = num(c.kwargs(), "output_size");
                yield indices ? F.adaptiveMaxPool1dWithIndices(x, size) : F.adaptiveMaxPool1d(x, size);
            }
            case "gather" -> Torch.gather(x, (int) num(c.kwargs(), "dim"), c.tensorArg(1), true);
            case "lp_pool3d" ->
                F.lpPool3d(
                        x,
                        Golden.number(c.kwarg("norm_type")),
                        ints(c.kwargs(), "kernel_size", 0),
                        c.has("stride") ? ints(c.kwargs(), "stride", 0) : null,
                        ceil);
            default -> {
                @SuppressWarnings("unchecked")
                Map<String, Object> kw = (Map<String, Object>) c.kwargs().get("module");
                Module m = module(c.op(), kw);
                yield indices ? withIndices(m, x) : m.forward(x);
            }
        };
    }

    private static ValuesIndices withIndices(Module m, Tensor x) {
        return switch (m) {
            case MaxPool3d p -> p.forwardWithIndices(x);
            case AdaptiveMaxPool1d p -> p.forwardWithIndices(x);
            case AdaptiveMaxPool2d p -> p.forwardWithIndices(x);
            case AdaptiveMaxPool3d p -> p.forwardWithIndices(x);
            default -> throw new AssertionError("no indices from " + m);
        };
    }

    /** The module {@code name} built from PyTorch's constructor arguments. */
    private static Module module(String name, Map<String, Object> kw) {
        boolean ceil = Boolean.TRUE.equals(kw.get("ceil_mode"));
        long[] stride = kw.get("stride") == null ? null : ints(kw, "stride", 0);
        return switch (name) {
            case "MaxPool3d" ->
                new MaxPool3d(
                        ints(kw, "kernel_size", 0), stride, ints(kw, "padding", 0), ints(kw, "dilation", 1), ceil);
            case "AvgPool3d" ->
                new AvgPool3d(
                        ints(kw, "kernel_size", 0),
                        stride,
                        ints(kw, "padding", 0),
                        ceil,
                        !Boolean.FALSE.equals(kw.get("count_include_pad")),
                        kw.get("divisor_override") == null ? null : num(kw, "divisor_override"));
            case "AdaptiveMaxPool1d" -> new AdaptiveMaxPool1d(num(kw, "output_size"));
            case "AdaptiveMaxPool2d" -> {
                Long[] s = sizes(kw);
                yield s.length == 1 ? new AdaptiveMaxPool2d(s[0]) : new AdaptiveMaxPool2d(s[0], s[1]);
            }
            case "AdaptiveMaxPool3d" -> {
                Long[] s = sizes(kw);
                yield s.length == 1 ? new AdaptiveMaxPool3d(s[0]) : new AdaptiveMaxPool3d(s[0], s[1], s[2]);
            }
            case "AdaptiveAvgPool3d" -> {
                Long[] s = sizes(kw);
                yield s.length == 1 ? new AdaptiveAvgPool3d(s[0]) : new AdaptiveAvgPool3d(s[0], s[1], s[2]);
            }
            case "LPPool3d" ->
                new LPPool3d(Golden.number(kw.get("norm_type")), ints(kw, "kernel_size", 0), stride, ceil);
            default -> throw new AssertionError("unknown module " + name);
        };
    }

    private static long num(Map<String, Object> kw, String name) {
        return ((Number) kw.get(name)).longValue();
    }

    /** output_size: one int, or a list whose nulls are PyTorch's None. */
    private static Long[] sizes(Map<String, Object> kw) {
        Object v = kw.get("output_size");
        if (v instanceof Number n) return new Long[] {n.longValue()};
        return ((List<?>) v)
                .stream().map(e -> e == null ? null : ((Number) e).longValue()).toArray(Long[]::new);
    }

    /** An int or a list of ints as long[] ({@code absent} when missing). */
    private static long[] ints(Map<String, Object> kw, String name, long absent) {
        Object v = kw.get(name);
        if (v == null) return new long[] {absent};
        if (v instanceof Number n) return new long[] {n.longValue()};
        return ((List<?>) v).stream().mapToLong(x -> ((Number) x).longValue()).toArray();
    }
}
