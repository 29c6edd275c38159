package org.jtorch.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
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
 * The float32 pooling kernels against PyTorch 2.13 bit for bit ({@code make_golden_pool_float32.py}): max, average and
 * adaptive pools in 2-d and 3-d, values, indices and input gradients, all rounded as ATen's float kernels round them
 * (float32 sums and accumulations, adaptive means divided axis by axis).
 */
class PoolFloat32GoldenTest {
    static Stream<Golden.Case> cases() {
        return Golden.cases("pool_float32.json").stream();
    }

    @Test
    void fixtureIsLoaded() {
        assertEquals(21, Golden.cases("pool_float32.json").size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesPyTorchBitForBit(Golden.Case c) {
        Golden.check(c, List.of(), true, () -> run(c));
    }

    private static Object run(Golden.Case c) {
        Tensor x = c.tensorArg(0).requiresGrad(true);
        assertEquals(DType.FLOAT32, x.dtype());
        Object result = call(c, x);
        List<Tensor> outs =
                result instanceof ValuesIndices vi ? List.of(vi.values(), vi.indices()) : List.of((Tensor) result);
        List<Object> r = new ArrayList<>();
        for (Tensor o : outs) r.add(o.detach());
        outs.get(0).mul(c.tensorArg(1)).sum().backward();
        r.add(x.grad());
        return r;
    }

    private static Object call(Golden.Case c, Tensor x) {
        return switch (c.op()) {
            case "max_pool2d" ->
                F.maxPool2dWithIndices(
                        x,
                        ints(c, "kernel_size"),
                        ints(c, "stride"),
                        ints(c, "padding"),
                        ints(c, "dilation"),
                        flag(c, "ceil_mode"));
            case "max_pool3d" ->
                F.maxPool3dWithIndices(
                        x,
                        ints(c, "kernel_size"),
                        ints(c, "stride"),
                        ints(c, "padding"),
                        ints(c, "dilation"),
                        flag(c, "ceil_mode"));
            case "avg_pool2d" ->
                F.avgPool2d(
                        x,
                        ints(c, "kernel_size"),
                        ints(c, "stride"),
                        ints(c, "padding"),
                        flag(c, "ceil_mode"),
                        flag(c, "count_include_pad"),
                        divisor(c));
            case "avg_pool3d" ->
                F.avgPool3d(
                        x,
                        ints(c, "kernel_size"),
                        ints(c, "stride"),
                        ints(c, "padding"),
                        flag(c, "ceil_mode"),
                        flag(c, "count_include_pad"),
                        divisor(c));
            case "adaptive_avg_pool2d" -> F.adaptiveAvgPool2d(x, ints(c, "output_size"));
            case "adaptive_avg_pool3d" -> F.adaptiveAvgPool3d(x, ints(c, "output_size"));
            case "adaptive_max_pool2d" -> F.adaptiveMaxPool2dWithIndices(x, ints(c, "output_size"));
            case "adaptive_max_pool3d" -> F.adaptiveMaxPool3dWithIndices(x, ints(c, "output_size"));
            default -> throw new AssertionError("unknown op " + c.op());
        };
    }

    private static long[] ints(Golden.Case c, String name) {
        return ((List<?>) c.kwarg(name))
                .stream().mapToLong(v -> ((Number) v).longValue()).toArray();
    }

    private static boolean flag(Golden.Case c, String name) {
        return Boolean.TRUE.equals(c.kwarg(name));
    }

    private static Long divisor(Golden.Case c) {
        return c.kwarg("divisor_override") instanceof Number n ? n.longValue() : null;
    }
}
