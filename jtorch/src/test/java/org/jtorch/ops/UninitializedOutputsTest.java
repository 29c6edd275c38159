package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.Warnings;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.storage.UninitializedArrays;
import org.jtorch.testing.OpDb;
import org.jtorch.testing.OpInfo;
import org.jtorch.testing.PointwiseTable;
import org.jtorch.testing.SampleInputs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Structured ops' outputs are allocated without zeroing ({@link Execution}), so every kernel must write each element of
 * its outputs without reading it first. The sweep runs every op of the op table twice, once with fresh outputs filled
 * with a poison pattern (NaN, or a byte pattern for integer kinds) and once without, and requires the same bits: an
 * element a kernel skips, or accumulates into, shows as a difference.
 */
class UninitializedOutputsTest {
    private static final List<DType> POINTWISE_DTYPES =
            List.of(DType.BOOL, DType.INT32, DType.INT64, DType.FLOAT32, DType.FLOAT64, DType.COMPLEX128);

    @AfterEach
    void poisonOff() {
        UninitializedArrays.setPoison(false);
    }

    @Test
    void theBuildsJvmsAllocateWithoutZeroing() {
        // the surefire, exec and benchmark JVMs pass --add-exports=java.base/jdk.internal.misc (README "JVM flags")
        assertTrue(UninitializedArrays.available(), "jdk.internal.misc is not exported to JTorch in this JVM");
    }

    @TestFactory
    Stream<DynamicTest> opTableOutputsDoNotDependOnFreshMemory() {
        List<DynamicTest> tests = new ArrayList<>();
        for (OpDb.Entry e : OpDb.ALL) {
            if (e.op().has(OpDef.Flag.RANDOM)) continue; // their samples draw from generators the sweep cannot replay
            for (DType dtype : e.dtypes()) {
                for (OpDb.Sample s : e.samples()) {
                    String name = e.name() + "/" + dtype.pyName() + "/" + s.label();
                    tests.add(DynamicTest.dynamicTest(
                            name, () -> check(name, e.op(), () -> s.args().build(SampleInputs.on(dtype, Device.CPU)))));
                }
            }
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> pointwiseOutputsDoNotDependOnFreshMemory() {
        List<DynamicTest> tests = new ArrayList<>();
        for (OpDef op : PointwiseTable.ops()) {
            int arity = PointwiseTable.tensorArgs(op);
            for (DType dtype : POINTWISE_DTYPES) {
                for (OpInfo.Sample s : OpInfo.pointwiseSamples(arity)) {
                    String name = op.qualifiedName() + "/" + dtype.pyName() + "/" + s.label();
                    tests.add(DynamicTest.dynamicTest(name, () -> {
                        check(name, op, () -> {
                            SampleInputs in = SampleInputs.on(dtype, Device.CPU);
                            Object[] tensors = new Object[s.shapes().length];
                            for (int i = 0; i < tensors.length; i++) tensors[i] = in.t(s.shapes()[i]);
                            return PointwiseTable.args(op, tensors);
                        });
                    }));
                }
            }
        }
        return tests.stream();
    }

    /** The op's outputs with poisoned fresh memory equal those without, bit for bit; refusals are skipped. */
    private static void check(String name, OpDef op, java.util.function.Supplier<Object[]> args) {
        byte[][] plain = run(op, args.get(), false);
        if (plain == null) return; // the op refuses this sample (OpDbTest checks how)
        byte[][] poisoned = run(op, args.get(), true);
        assertEquals(plain.length, poisoned.length, "number of outputs");
        for (int i = 0; i < plain.length; i++) {
            assertArrayEquals(
                    plain[i], poisoned[i], name + ": output " + i + " reads or skips elements of its fresh memory");
        }
    }

    /** Each output's bytes in row-major order (null when the op refuses the arguments). */
    private static byte[][] run(OpDef op, Object[] args, boolean poison) {
        Object result;
        UninitializedArrays.setPoison(poison);
        Torch.manualSeed(7); // random ops draw the same numbers in both runs
        try (var _ = Warnings.catchWarnings()) {
            result = Dispatcher.call(op, args);
        } catch (RuntimeException refused) {
            return null;
        } finally {
            UninitializedArrays.setPoison(false);
        }
        Tensor[] outs = result instanceof Tensor t ? new Tensor[] {t} : (Tensor[]) result;
        byte[][] bytes = new byte[outs.length][];
        for (int i = 0; i < outs.length; i++) bytes[i] = bytesOf(outs[i]);
        return bytes;
    }

    private static byte[] bytesOf(Tensor t) {
        if (t == null || t.numel() == 0) return new byte[0];
        Tensor c = t.contiguous();
        long itemSize = c.dtype().itemSize();
        MemorySegment data = c.impl().storage().segment();
        return data.asSlice(c.storageOffset() * itemSize, c.numel() * itemSize).toArray(ValueLayout.JAVA_BYTE);
    }

    // ---- the sweep can fail ----------------------------------------------------------------------------

    @Test
    void aKernelThatSkipsAnElementIsCaught() {
        OpDef skipsLast = OpDef.Unregistered.structured(
                "skips_last(Tensor self) -> Tensor",
                a -> {
                    Tensor x = (Tensor) a[0];
                    return Spec.of(x.impl().shapeRef(), x.dtype(), x.device(), null);
                },
                (a, outs, spec) -> {
                    Tensor x = ((Tensor) a[0]).contiguous();
                    float[] in = (float[]) x.impl().storage().array();
                    float[] out = (float[]) outs[0].impl().storage().array();
                    for (int i = 0; i < x.numel() - 1; i++) out[i] = in[i] * 2;
                });
        assertThrows(
                AssertionError.class,
                () -> check("skips_last", skipsLast, () ->
                        new Object[] {Torch.arange(6).to(DType.FLOAT32)}));
    }
}
