package org.jtorch.fx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.DynamicOutputShapeException;
import org.jtorch.Tensor;
import org.jtorch.Warnings;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.ops.OpDef;
import org.jtorch.testing.OpDb;
import org.jtorch.testing.PointwiseTable;
import org.jtorch.testing.SampleInputs;
import org.jtorch.testing.Sweeps;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Fake propagation is the meta device's, on the device the inputs claim: for every {@link OpDb} sample in every dtype
 * swept (and every {@link PointwiseTable} op, contiguous and strided), the op run under {@link FakeTensorMode} on the
 * CPU sample gives fake CPU outputs whose shapes, strides and dtypes are those the meta device gives for the meta
 * sample, and those of the real CPU result (where the CPU accepts the values). Refusals: see {@link #checkRefusal}.
 */
class FakeTensorOpDbSweepTest {
    @TestFactory
    Stream<DynamicTest> fakeOutputsHaveTheMetaDevicesMetadata() {
        List<DynamicTest> tests = new ArrayList<>();
        for (OpDb.Entry e : OpDb.ALL) {
            for (DType dtype : e.dtypes())
                for (OpDb.Sample s : e.samples()) {
                    String name = e.name() + "/" + dtype.pyName() + "/" + s.label();
                    tests.add(DynamicTest.dynamicTest(
                            name, () -> Sweeps.named(name, () -> check(e.op(), dtype, s.args()))));
                }
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> pointwiseOpsPropagateTheMetaDevicesMetadata() {
        List<DynamicTest> tests = new ArrayList<>();
        for (OpDef op : PointwiseTable.ops()) {
            for (DType dtype : OpDb.DTYPES) {
                for (boolean strided : new boolean[] {false, true}) {
                    String name = OpDb.key(op) + "/" + dtype.pyName() + (strided ? "/strided" : "/2x3");
                    OpDb.Args args = in -> {
                        Object[] tensors = new Object[PointwiseTable.tensorArgs(op)];
                        for (int i = 0; i < tensors.length; i++) tensors[i] = strided ? in.nc(2, 3) : in.t(2, 3);
                        return PointwiseTable.args(op, tensors);
                    };
                    tests.add(DynamicTest.dynamicTest(name, () -> Sweeps.named(name, () -> check(op, dtype, args))));
                }
            }
        }
        return tests.stream();
    }

    private static void check(OpDef op, DType dtype, OpDb.Args sample) {
        try (var _ = Warnings.catchWarnings()) {
            checkQuietly(op, dtype, sample);
        }
    }

    private static void checkQuietly(OpDef op, DType dtype, OpDb.Args sample) {
        Tensor[] cpu = eager(op, dtype, sample);
        Tensor[] meta;
        try {
            meta = outputs(Dispatcher.call(op, sample.build(SampleInputs.on(dtype, Device.META))));
        } catch (RuntimeException refusedOnMeta) {
            checkRefusal(op, dtype, sample, refusedOnMeta, cpu);
            return;
        }
        Tensor[] fake = runFake(op, dtype, sample);
        assertEquals(meta.length, fake.length, "number of outputs");
        for (int i = 0; i < fake.length; i++) {
            assertEquals(TensorMeta.of(meta[i]).on(Device.CPU), TensorMeta.of(fake[i]), "output " + i + " vs meta");
        }
        checkAgainstCpu(fake, cpu);
    }

    /**
     * Where the meta device refuses, fake propagation refuses with the same exception class, or, where the output's
     * shape depends on values (an op tagged so, or a composite reaching one, such as indexing with a mask), with
     * {@link DynamicOutputShapeException}. It may succeed where the meta device gives up only for an output shape that
     * does not depend on values (PyTorch's {@code index_put} with a mask: the meta device computes the mask's indices,
     * fake propagation need not), and then it must agree with the CPU result.
     */
    private static void checkRefusal(
            OpDef op, DType dtype, OpDb.Args sample, RuntimeException refusedOnMeta, Tensor[] cpu) {
        Tensor[] fake;
        try {
            fake = runFake(op, dtype, sample);
        } catch (DynamicOutputShapeException dynamic) {
            return;
        } catch (RuntimeException refused) {
            if (op.has(OpDef.Flag.DYNAMIC_OUTPUT_SHAPE)) fail("refused with " + refused + ", not as dynamic");
            assertEquals(refusedOnMeta.getClass(), refused.getClass(), "refused as on meta: " + refused);
            return;
        }
        assertNotNull(cpu, "fake propagation accepts what meta and CPU refuse (meta: " + refusedOnMeta + ")");
        assertEquals(cpu.length, fake.length, "number of outputs");
        checkAgainstCpu(fake, cpu);
    }

    private static void checkAgainstCpu(Tensor[] fake, Tensor[] cpu) {
        for (int i = 0; i < fake.length; i++) {
            assertTrue(FakeTensorMode.isFake(fake[i]), "output " + i + " is fake");
            assertEquals(Device.CPU, fake[i].device(), "output " + i + " claims the CPU");
            if (cpu != null) {
                assertArrayEquals(cpu[i].shape(), fake[i].shape(), "output " + i + " shape vs CPU");
                assertArrayEquals(cpu[i].stride(), fake[i].stride(), "output " + i + " strides vs CPU");
                assertEquals(cpu[i].dtype(), fake[i].dtype(), "output " + i + " dtype vs CPU");
            }
        }
    }

    /** The op on the CPU sample inside a fake mode, which converts the real arguments as they enter. */
    private static Tensor[] runFake(OpDef op, DType dtype, OpDb.Args sample) {
        Object[] args = sample.build(SampleInputs.on(dtype, Device.CPU));
        try (var _ = FakeTensorMode.open()) {
            return outputs(Dispatcher.call(op, args));
        }
    }

    /** The real CPU outputs, or null where the CPU refuses values the meta rule does not look at. */
    private static Tensor[] eager(OpDef op, DType dtype, OpDb.Args sample) {
        try {
            return outputs(Dispatcher.call(op, sample.build(SampleInputs.on(dtype, Device.CPU))));
        } catch (RuntimeException refusedOnValues) {
            return null;
        }
    }

    private static Tensor[] outputs(Object result) {
        return switch (result) {
            case null -> new Tensor[0];
            case Tensor t -> new Tensor[] {t};
            case Tensor[] ts -> ts;
            case Record r -> recordTensors(r);
            default -> throw new AssertionError("an op returned " + result.getClass());
        };
    }

    private static Tensor[] recordTensors(Record r) {
        List<Tensor> out = new ArrayList<>();
        for (var c : r.getClass().getRecordComponents()) {
            try {
                if (c.getAccessor().invoke(r) instanceof Tensor t) out.add(t);
            } catch (ReflectiveOperationException ex) {
                throw new AssertionError(ex);
            }
        }
        return out.toArray(Tensor[]::new);
    }
}
