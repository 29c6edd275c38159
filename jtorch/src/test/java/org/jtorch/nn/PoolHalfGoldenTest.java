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
 * The pools on float16 and bfloat16 against PyTorch 2.13 bit for bit ({@code make_golden_pool_half.py}): max, average
 * and adaptive pools in 1-d, 2-d and 3-d, values, indices and input gradients. The forwards sum in float and round once
 * (adaptive_avg_pool3d in the element type), every gradient rounds at each share and each addition, as ATen's CPU
 * kernels do; avg_pool3d is refused as PyTorch's CPU build refuses it.
 */
class PoolHalfGoldenTest {
    static Stream<Golden.Case> cases() {
        return Golden.cases("pool_half.json").stream();
    }

    @Test
    void fixtureIsLoaded() {
        assertEquals(44, Golden.cases("pool_half.json").size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesPyTorchBitForBit(Golden.Case c) {
        Golden.check(c, List.of(), true, () -> run(c));
    }

    private static Object run(Golden.Case c) {
        Tensor x = c.tensorArg(0).requiresGrad(true);
        DType dtype = x.dtype();
        assertEquals(true, dtype == DType.FLOAT16 || dtype == DType.BFLOAT16, "a half-precision input");
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
        long[] k = c.has("kernel_size") ? ints(c, "kernel_size") : null;
        return switch (c.op()) {
            case "max_pool1d" ->
                F.maxPool1dWithIndices(
                        x, k[0], ints(c, "stride")[0], ints(c, "padding")[0], ints(c, "dilation")[0], flag(c));
            case "max_pool2d" ->
                F.maxPool2dWithIndices(x, k, ints(c, "stride"), ints(c, "padding"), ints(c, "dilation"), flag(c));
            case "max_pool3d" ->
                F.maxPool3dWithIndices(x, k, ints(c, "stride"), ints(c, "padding"), ints(c, "dilation"), flag(c));
            case "avg_pool1d" ->
                F.avgPool1d(x, k[0], ints(c, "stride")[0], ints(c, "padding")[0], flag(c), includePad(c));
            case "avg_pool2d" ->
                F.avgPool2d(x, k, ints(c, "stride"), ints(c, "padding"), flag(c), includePad(c), divisor(c));
            case "avg_pool3d" ->
                F.avgPool3d(x, k, ints(c, "stride"), ints(c, "padding"), flag(c), includePad(c), divisor(c));
            case "adaptive_avg_pool1d" -> F.adaptiveAvgPool1d(x, ints(c, "output_size")[0]);
            case "adaptive_avg_pool2d" -> F.adaptiveAvgPool2d(x, ints(c, "output_size"));
            case "adaptive_avg_pool3d" -> F.adaptiveAvgPool3d(x, ints(c, "output_size"));
            case "adaptive_max_pool1d" -> F.adaptiveMaxPool1dWithIndices(x, ints(c, "output_size")[0]);
            case "adaptive_max_pool2d" -> F.adaptiveMaxPool2dWithIndices(x, ints(c, "output_size"));
            case "adaptive_max_pool3d" -> F.adaptiveMaxPool3dWithIndices(x, ints(c, "output_size"));
            default -> throw new AssertionError("unknown op " + c.op());
        };
    }

    private static long[] ints(Golden.Case c, String name) {
        return ((List<?>) c.kwarg(name))
                .stream().mapToLong(v -> ((Number) v).longValue()).toArray();
    }

    private static boolean flag(Golden.Case c) {
        return Boolean.TRUE.equals(c.kwarg("ceil_mode"));
    }

    private static boolean includePad(Golden.Case c) {
        return Boolean.TRUE.equals(c.kwarg("count_include_pad"));
    }

    private static Long divisor(Golden.Case c) {
        return c.kwarg("divisor_override") instanceof Number n ? n.longValue() : null;
    }
}
