package org.jtorch.library;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.WarningRecorder;
import org.jtorch.Warnings;
import org.jtorch.autograd.GradCheck;
import org.jtorch.debug.DebugMode;
import org.jtorch.func.Func;
import org.jtorch.ops.OpRegistry;
import org.junit.jupiter.api.Test;

/** Custom ops ({@code torch.library}): a {@code mylib::} op with a Java kernel through every layer, and opcheck. */
class CustomOpTest {
    /** sin over the tensor's values: a float array for float32, a double array otherwise. */
    static Tensor sinKernel(Tensor x) {
        if (x.dtype() == DType.FLOAT32) {
            float[] v = x.toFloatArray();
            for (int i = 0; i < v.length; i++) v[i] = (float) Math.sin(v[i]);
            return Torch.tensor(v).view(x.shape());
        }
        double[] v = x.toDoubleArray();
        for (int i = 0; i < v.length; i++) v[i] = Math.sin(v[i]);
        return Torch.tensor(v, x.dtype(), x.shape());
    }

    static Object fakeLike(Object[] args) {
        Tensor x = (Tensor) args[0];
        return Torch.empty(x.shape(), x.dtype(), x.device());
    }

    static final AtomicInteger VMAP_RULE_CALLS = new AtomicInteger();

    /** The op of the examples: kernel, fake, autograd (differentiable backward) and a vmap rule. */
    static final CustomOp MYSIN = Library.customOp(
                    "mylib::mysin", "(Tensor x) -> Tensor", args -> sinKernel((Tensor) args[0]))
            .registerFake(CustomOpTest::fakeLike)
            .registerAutograd(
                    (ctx, g) -> new Tensor[] {g[0].mul(ctx.savedTensors()[0].cos())},
                    (ctx, inputs, output) -> ctx.saveForBackward((Tensor) inputs[0]));

    static {
        MYSIN.registerVmap((batch, inDims, args) -> {
            VMAP_RULE_CALLS.incrementAndGet();
            return new CustomOp.VmapResult((Tensor) MYSIN.call(args[0]), inDims[0]);
        });
    }

    private static final AtomicInteger NAMES = new AtomicInteger();

    /** A fresh name per op: the registry is global, and a name may be defined once. */
    private static String fresh(String base) {
        return "mylib::" + base + NAMES.incrementAndGet();
    }

    private static Tensor x() {
        return Torch.tensor(new float[] {0.1f, -0.7f, 2.5f});
    }

    @Test
    void runsItsKernelThroughTheDispatcher() {
        Tensor y = (Tensor) MYSIN.call(x());
        assertEquals(DType.FLOAT32, y.dtype());
        assertArrayEquals(
                new float[] {(float) Math.sin(0.1f), (float) Math.sin(-0.7f), (float) Math.sin(2.5f)},
                y.toFloatArray());
        assertEquals("mylib::mysin(Tensor x) -> Tensor", MYSIN.schemaString());
    }

    @Test
    void theRegistryFindsItButKeepsTheBuiltInSetApart() {
        assertEquals(MYSIN.qualifiedName(), OpRegistry.lookup("mylib::mysin").qualifiedName());
        assertTrue(
                OpRegistry.custom().stream().anyMatch(op -> op.qualifiedName().equals("mylib::mysin")));
        assertFalse(OpRegistry.all().stream().anyMatch(op -> op.qualifiedName().startsWith("mylib::")));
        var twice = assertThrows(
                IllegalStateException.class,
                () -> Library.customOp("mylib::mysin", "(Tensor x) -> Tensor", args -> args[0]));
        assertEquals("mylib::mysin is defined twice", twice.getMessage());
        var aten = assertThrows(
                IllegalArgumentException.class,
                () -> Library.customOp("aten::mysin", "(Tensor x) -> Tensor", args -> args[0]));
        assertTrue(aten.getMessage().contains("reserved"), aten.getMessage());
    }

    @Test
    void metaTensorsRunTheFakeOrNameTheOp() {
        Tensor y = (Tensor) MYSIN.call(Torch.empty(new long[] {4, 2}, DType.FLOAT32, Device.META));
        assertTrue(y.isMeta());
        assertArrayEquals(new long[] {4, 2}, y.shape());
        CustomOp noFake = Library.customOp(fresh("nofake"), "(Tensor x) -> Tensor", args -> args[0]);
        var e = assertThrows(
                TorchException.class, () -> noFake.call(Torch.empty(new long[] {2}, DType.FLOAT32, Device.META)));
        assertTrue(
                e.getMessage().startsWith(noFake.qualifiedName() + ": no fake implementation registered"),
                e.getMessage());
    }

    @Test
    void gradcheckAndGradgradcheck() {
        Tensor x = Torch.tensor(new double[] {0.3, -1.2, 2.0, 0.0}).requiresGrad(true);
        List<Tensor> inputs = List.of(x);
        assertTrue(GradCheck.check(in -> (Tensor) MYSIN.call(in.get(0)), inputs, GradCheck.Options.defaults()));
        assertTrue(
                GradCheck.checkSecondOrder(in -> (Tensor) MYSIN.call(in.get(0)), inputs, GradCheck.Options.defaults()));
        Tensor leaf = x().requiresGrad(true);
        ((Tensor) MYSIN.call(leaf)).sum().backward();
        assertArrayEquals(
                new float[] {(float) Math.cos(0.1f), (float) Math.cos(-0.7f), (float) Math.cos(2.5f)},
                leaf.grad().toFloatArray(),
                1e-6f);
    }

    @Test
    void composesWithTheFunctionalTransforms() {
        Tensor x = Torch.tensor(new double[] {0.3, -1.2, 2.0});
        Tensor cos = Torch.tensor(new double[] {Math.cos(0.3), Math.cos(-1.2), Math.cos(2.0)});
        Tensor grad = Func.grad((Tensor t) -> ((Tensor) MYSIN.call(t)).sum()).apply(x);
        assertArrayEquals(cos.toDoubleArray(), grad.toDoubleArray(), 1e-12);
        // per-example gradients: vmap over grad, the op batched by its rule and differentiated per example
        Tensor batch = Torch.stack(List.of(x, x.mul(0.5)));
        Tensor perExample = Func.vmap(Func.grad((Tensor t) -> ((Tensor) MYSIN.call(t)).sum()))
                .apply(batch);
        assertArrayEquals(
                Torch.stack(List.of(x.cos(), x.mul(0.5).cos())).toDoubleArray(), perExample.toDoubleArray(), 1e-12);
    }

    @Test
    void withoutAutogradBackwardNamesTheOp() {
        CustomOp op = Library.customOp(fresh("nograd"), "(Tensor x) -> Tensor", args -> sinKernel((Tensor) args[0]));
        Tensor y = (Tensor) op.call(x().requiresGrad(true));
        var e = assertThrows(TorchException.class, () -> y.sum().backward());
        assertTrue(e.getMessage().startsWith(op.qualifiedName() + ": no autograd registered"), e.getMessage());
    }

    @Test
    void vmapRunsTheRegisteredRule() {
        Tensor batch = Torch.tensor(new float[][] {{0.1f, 0.2f}, {0.3f, 0.4f}, {0.5f, 0.6f}});
        int before = VMAP_RULE_CALLS.get();
        Tensor y = Func.vmap(t -> (Tensor) MYSIN.call(t)).apply(batch);
        assertEquals(before + 1, VMAP_RULE_CALLS.get());
        assertArrayEquals(sinKernel(batch).toFloatArray(), y.toFloatArray());
        Tensor columns = Func.vmap(t -> (Tensor) MYSIN.call(t), 1, 0).apply(batch);
        assertArrayEquals(new long[] {2, 3}, columns.shape());
        assertArrayEquals(sinKernel(batch.movedim(1, 0)).toFloatArray(), columns.toFloatArray());
    }

    @Test
    void vmapWithoutARuleLoopsWithTheFallbackWarning() {
        CustomOp op = Library.customOp(fresh("loop"), "(Tensor x) -> Tensor", args -> sinKernel((Tensor) args[0]))
                .registerFake(CustomOpTest::fakeLike);
        Tensor batch = Torch.tensor(new float[][] {{0.1f, 0.2f}, {0.3f, 0.4f}});
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            Tensor y = Func.vmap(t -> (Tensor) op.call(t)).apply(batch);
            assertArrayEquals(sinKernel(batch).toFloatArray(), y.toFloatArray());
            assertTrue(
                    rec.records().stream()
                            .anyMatch(w -> w.message().contains("batching rule for " + op.qualifiedName())),
                    rec.records().toString());
        }
    }

    @Test
    void vmapLoopsOverAnOpWithoutAFakeToo() {
        CustomOp op =
                Library.customOp(fresh("loopnofake"), "(Tensor x) -> Tensor", args -> sinKernel((Tensor) args[0]));
        Tensor batch = Torch.tensor(new float[][] {{0.1f, 0.2f}, {0.3f, 0.4f}});
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            Tensor y = Func.vmap(t -> (Tensor) op.call(t)).apply(batch);
            assertArrayEquals(sinKernel(batch).toFloatArray(), y.toFloatArray());
            assertEquals(1, rec.records().size());
        }
    }

    @Test
    void compilesIntoOneGraphWithItsFakeAndBackward() {
        org.jtorch.compile.Compile.reset();
        java.util.function.Function<Tensor, Tensor> fn = t -> ((Tensor) MYSIN.call(t.mul(2.0))).add(t);
        var compiled =
                Torch.compile(fn, org.jtorch.compile.CompileOptions.defaults().fullGraph(true));
        Tensor a = x().requiresGrad(true), b = x().requiresGrad(true);
        Tensor eager = fn.apply(a), viaGraph = compiled.apply(b);
        eager.sum().backward();
        viaGraph.sum().backward();
        assertArrayEquals(eager.toFloatArray(), viaGraph.toFloatArray());
        assertArrayEquals(a.grad().toFloatArray(), b.grad().toFloatArray());
        // the analytic gradient: d/dt (sin(2t) + t) = 2 cos(2t) + 1
        float[] t = x().toFloatArray(), g = b.grad().toFloatArray();
        for (int i = 0; i < t.length; i++) assertEquals(2 * Math.cos(2 * t[i]) + 1, g[i], 1e-6);
        assertEquals(1, org.jtorch.compile.Compile.counters().graphs());
    }

    @Test
    void debugModeLogsItByItsQualifiedName() {
        Tensor x = x();
        DebugMode dm;
        try (DebugMode d = DebugMode.open(false)) {
            dm = d;
            MYSIN.call(x);
        }
        // The kernel's own ops (toFloatArray, tensor, view) run below every mode: one line, the op itself.
        assertEquals("    mylib::mysin(t: f32[3])  ->  t: f32[3]", dm.log());
    }

    @Test
    void opcheckPassesForAWellDefinedOp() {
        Library.opcheck(MYSIN, x());
        Library.opcheck(MYSIN, Torch.tensor(new double[][] {{0.5, 1.5}, {-2.0, 3.0}}));
    }

    @Test
    void opcheckPassesWithoutAutogradAndWithoutAVmapRule() {
        CustomOp op = Library.customOp(fresh("plain"), "(Tensor x) -> Tensor", args -> sinKernel((Tensor) args[0]))
                .registerFake(CustomOpTest::fakeLike);
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            Library.opcheck(op, x());
            assertTrue(
                    rec.records().stream().anyMatch(w -> w.message()
                            .contains("not yet implemented the batching rule for " + op.qualifiedName())),
                    "vmap of an op without a batch rule warns that it loops: " + rec.records());
        }
    }

    @Test
    void opcheckFailsOnAWrongFakeShape() {
        CustomOp op = Library.customOp(fresh("badfake"), "(Tensor x) -> Tensor", args -> sinKernel((Tensor) args[0]))
                .registerFake(args -> Torch.empty(new long[] {1}, DType.FLOAT32, Device.META));
        var e = assertThrows(OpCheckError.class, () -> Library.opcheck(op, x()));
        assertEquals(
                "opcheck: test_faketensor failed for " + op.qualifiedName() + ": output 0: the fake "
                        + "implementation gives float32[1] but the kernel gives float32[3]",
                e.getMessage());
    }

    @Test
    void opcheckFailsWithoutAFake() {
        CustomOp op = Library.customOp(fresh("nofake"), "(Tensor x) -> Tensor", args -> sinKernel((Tensor) args[0]));
        var e = assertThrows(OpCheckError.class, () -> Library.opcheck(op, x()));
        assertTrue(e.getMessage().startsWith("opcheck: test_faketensor failed"), e.getMessage());
    }

    @Test
    void opcheckFailsOnAnUndeclaredMutation() {
        CustomOp op = Library.customOp(fresh("sneaky"), "(Tensor x) -> Tensor", args -> {
                    Tensor x = (Tensor) args[0];
                    Tensor y = sinKernel(x);
                    x.mul_(2.0);
                    return y;
                })
                .registerFake(CustomOpTest::fakeLike);
        var e = assertThrows(OpCheckError.class, () -> Library.opcheck(op, x()));
        assertEquals(
                "opcheck: test_schema failed for " + op.qualifiedName() + ": argument x was modified but the "
                        + "schema does not mark it written (Tensor(a!)): an undeclared mutation",
                e.getMessage());
    }

    @Test
    void aDeclaredMutationBumpsTheVersionAndPassesOpcheck() {
        CustomOp op = Library.customOp(fresh("scale_"), "(Tensor(a!) x) -> ()", args -> {
                    ((Tensor) args[0]).mul_(2.0);
                    return null;
                })
                .registerFake(args -> null);
        Tensor x = x();
        int version = x.version();
        assertNull(op.call(x));
        assertTrue(x.version() > version);
        assertArrayEquals(new float[] {0.2f, -1.4f, 5.0f}, x.toFloatArray());
        Library.opcheck(op, x());
    }

    @Test
    void opcheckFailsOnAWrongGradient() {
        CustomOp op = Library.customOp(fresh("badgrad"), "(Tensor x) -> Tensor", args -> sinKernel((Tensor) args[0]))
                .registerFake(CustomOpTest::fakeLike)
                .registerAutograd(
                        (ctx, g) -> new Tensor[] {
                            g[0].mul(ctx.savedTensors()[0].cos()).mul(2.0)
                        },
                        (ctx, inputs, output) -> ctx.saveForBackward((Tensor) inputs[0]));
        var e = assertThrows(OpCheckError.class, () -> Library.opcheck(op, x()));
        assertTrue(
                e.getMessage()
                        .startsWith("opcheck: test_autograd_registration failed for " + op.qualifiedName()
                                + ": gradcheck of output 0 in float64"),
                e.getMessage());
    }

    @Test
    void aVmapRuleIsForOpsWithOneReturn() {
        CustomOp op = Library.customOp(fresh("split"), "(Tensor x) -> (Tensor, Tensor)", args -> args[0]);
        var e = assertThrows(
                IllegalArgumentException.class,
                () -> op.registerVmap((n, dims, args) -> new CustomOp.VmapResult((Tensor) args[0], dims[0])));
        assertTrue(
                e.getMessage().startsWith(op.qualifiedName() + ": registerVmap takes ops with one Tensor return"),
                e.getMessage());
    }

    @Test
    void aKernelReturningTheWrongCountIsRefused() {
        CustomOp op = Library.customOp(fresh("pair"), "(Tensor x) -> (Tensor, Tensor)", args -> args[0]);
        var e = assertThrows(TorchException.class, () -> op.call(x()));
        assertEquals(op.qualifiedName() + ": the kernel returned 1 tensor, the schema returns 2", e.getMessage());
    }
}
