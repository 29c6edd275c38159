package org.jtorch.amp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.debug.DebugMode;
import org.jtorch.linalg.Linalg;
import org.jtorch.nn.functional.F;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every class of PyTorch's CPU autocast lists against PyTorch 2.13 ({@code make_golden_autocast.py}): lower precision
 * (matrix products, convolutions, linear, attention), float32 (losses, cdist, linear algebra, prod), promote
 * ({@code cat}, {@code stack}, {@code index_copy}, with PyTorch's error for a float16/bfloat16 mix) and the ops on no
 * list, which follow their input on the CPU; then nesting and the gradients of float32 parameters.
 */
class AutocastGoldenTest {
    private static final String FILE = "autocast.json";

    @TestFactory
    Stream<DynamicTest> opClasses() {
        return Golden.cases(FILE).stream()
                .filter(c -> c.kwargs().containsKey("class"))
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> {
                    DType dtype = Golden.dtype((String) c.kwargs().get("dtype"));
                    Tensor[] a = new Tensor[c.args().size()];
                    for (int i = 0; i < a.length; i++) a[i] = c.tensorArg(i);
                    if (c.expectsError()) {
                        try (var _ = Amp.autocast(Device.CPU, dtype)) {
                            TorchException e = assertThrows(TorchException.class, () -> run(c.op(), a));
                            assertTrue(e.getMessage().contains(c.error()), e.getMessage());
                        }
                        return;
                    }
                    Tensor out;
                    try (var _ = Amp.autocast(Device.CPU, dtype)) {
                        out = run(c.op(), a);
                    }
                    Golden.assertOutput(c, out, false);
                }));
    }

    private static Tensor run(String op, Tensor[] a) {
        return switch (op) {
            case "mm" -> Torch.mm(a[0], a[1]);
            case "bmm" -> Torch.bmm(a[0], a[1]);
            case "addmm" -> Torch.addmm(a[0], a[1], a[2]);
            case "baddbmm" -> Torch.baddbmm(a[0], a[1], a[2]);
            case "matmul" -> a[0].matmul(a[1]);
            case "linear" -> F.linear(a[0], a[1], a[2]);
            case "linear_nobias" -> F.linear(a[0], a[1]);
            case "conv1d" -> F.conv1d(a[0], a[1], a[2], 1, 0, 1, 1);
            case "conv2d" -> F.conv2d(a[0], a[1], a[2]);
            case "sdpa" -> F.scaledDotProductAttention(a[0], a[1], a[2]);
            case "vecdot" -> Linalg.vecdot(a[0], a[1]);
            case "mse_loss" -> F.mseLoss(a[0], a[1]);
            case "l1_loss" -> F.l1Loss(a[0], a[1]);
            case "smooth_l1_loss" -> F.smoothL1Loss(a[0], a[1]);
            case "huber_loss" -> F.huberLoss(a[0], a[1]);
            case "cross_entropy" -> F.crossEntropy(a[0], a[1]);
            case "nll_loss" -> F.nllLoss(a[0], a[1]);
            case "kl_div" -> F.klDiv(a[0], a[1], "batchmean", false);
            case "bce_with_logits" -> F.binaryCrossEntropyWithLogits(a[0], a[1]);
            case "bce" -> F.binaryCrossEntropy(a[0], a[1]);
            case "cdist" -> Torch.cdist(a[0], a[1]);
            case "prod" -> Torch.prod(a[0], 1);
            case "linalg_inv" -> Linalg.inv(a[0]);
            case "linalg_solve" -> Linalg.solve(a[0], a[1]);
            case "linalg_cholesky" -> Linalg.cholesky(a[0]);
            case "linalg_eigvalsh" -> Linalg.eigvalsh(a[0]);
            case "linalg_svdvals" -> Linalg.svdvals(a[0]);
            case "cat" -> Torch.cat(List.of(a));
            case "stack" -> Torch.stack(List.of(a));
            case "index_copy" -> a[0].indexCopy(0, a[1], a[2]);
            case "softmax" -> F.softmax(a[0], 1);
            case "log_softmax" -> F.logSoftmax(a[0], 1);
            case "layer_norm" -> F.layerNorm(a[0], new long[] {4}, a[1], a[2], 1e-5);
            case "sum" -> a[0].sum();
            case "relu" -> F.relu(a[0]);
            case "add" -> a[0].add(a[1]);
            default -> throw new IllegalArgumentException(op);
        };
    }

    private static Golden.Case scopeCase(String id) {
        return Golden.cases(FILE).stream()
                .filter(c -> c.id().equals(id))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void nestedRegionsDecideByTheInnermost() {
        Golden.Case disabled = scopeCase("nested_disabled");
        Golden.Case half = scopeCase("nested_float16");
        Golden.Case after = scopeCase("after_nested");
        Tensor x = disabled.tensorArg(0), w = disabled.tensorArg(1);
        try (var _ = Amp.autocast(Device.CPU, DType.BFLOAT16)) {
            try (var _ = Amp.autocast(Device.CPU, false)) {
                assertFalse(Amp.isAutocastEnabled(Device.CPU));
                assertEquals(DType.BFLOAT16, Amp.getAutocastDtype(Device.CPU));
                Golden.assertOutput(disabled, Torch.mm(x, w), false);
            }
            try (var _ = Amp.autocast(Device.CPU, DType.FLOAT16)) {
                Golden.assertOutput(half, Torch.mm(x, w), false);
            }
            assertTrue(Amp.isAutocastEnabled(Device.CPU));
            Golden.assertOutput(after, Torch.mm(x, w), false);
        }
        assertFalse(Amp.isAutocastEnabled(Device.CPU));
        assertEquals(DType.FLOAT32, Torch.mm(x, w).dtype());
    }

    @Test
    void float32ParametersGetFloat32Gradients() {
        for (String id : List.of("linear_backward_bfloat16", "linear_backward_float16")) {
            Golden.Case c = scopeCase(id);
            DType dtype = Golden.dtype((String) c.kwargs().get("dtype"));
            Tensor x = c.tensorArg(0),
                    w = c.tensorArg(1).requiresGrad(true),
                    b = c.tensorArg(2).requiresGrad(true);
            Tensor out, loss;
            try (var _ = Amp.autocast(Device.CPU, dtype)) {
                out = F.linear(x, w, b);
                loss = F.mseLoss(out, c.tensorArg(3));
            }
            loss.backward();
            Golden.assertOutput(c, List.of(out, loss, w.grad(), b.grad()), false);
        }
    }

    @Test
    void unsupportedDtypeWarnsAndDisablesAndOtherDevicesAreRefused() {
        try (var rec = org.jtorch.Warnings.catchWarnings()) {
            try (var ac = Amp.autocast(Device.CPU, DType.FLOAT64)) {
                assertFalse(ac.enabled());
                assertFalse(Amp.isAutocastEnabled(Device.CPU));
            }
            assertTrue(rec.records().stream().anyMatch(r -> r.message().contains("Disabling autocast")));
        }
        TorchException e = assertThrows(TorchException.class, () -> Amp.autocast(Device.META, DType.BFLOAT16));
        assertTrue(e.getMessage().contains("unsupported autocast device_type"), e.getMessage());
    }

    @Test
    void parametersAreCastOncePerRegion() {
        for (boolean grad : new boolean[] {true, false}) {
            Golden.Case c = scopeCase("cast_count_requires_grad_" + (grad ? "True" : "False"));
            Tensor x = Torch.rand(2, 4);
            Tensor w = Torch.rand(3, 4).requiresGrad(grad), b = Torch.rand(3).requiresGrad(grad);
            long casts;
            try (var _ = Amp.autocast(Device.CPU, DType.BFLOAT16);
                    var log = DebugMode.open(false)) {
                F.linear(x, w, b);
                F.linear(x, w, b);
                casts = log.records().stream()
                        .filter(r -> r.op().contains("_to_copy"))
                        .count();
            }
            long expected = ((Number) ((java.util.Map<?, ?>) c.out()).get("count")).longValue();
            assertEquals(expected, casts, c.id());
        }
    }
}
