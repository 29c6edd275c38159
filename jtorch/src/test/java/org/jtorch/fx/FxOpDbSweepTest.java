package org.jtorch.fx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Warnings;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Schema;
import org.jtorch.ops.OpDef;
import org.jtorch.testing.OpDb;
import org.jtorch.testing.PointwiseTable;
import org.jtorch.testing.SampleInputs;
import org.jtorch.testing.Sweeps;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Captured graphs are correct for every op of {@link OpDb} and {@link PointwiseTable}: for each op, each sample, in
 * every dtype swept, {@code makeFx} of the op's call gives a graph that lints, that replays bitwise the eager result
 * (same kernels, same shapes, strides and dtypes), whose output metadata is the eager outputs', and whose meta-device
 * trace has the same nodes with the same metadata. What eager refuses, tracing refuses with the same exception class.
 *
 * <p>Random ops are compared like the others, with every generator they can draw from (the default one and any passed
 * as an argument) set to the same state before the eager run, the trace and the replay.
 */
class FxOpDbSweepTest {
    @TestFactory
    Stream<DynamicTest> makeFxReplaysEagerBitwise() {
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

    /** The pointwise ops that {@link OpDb} leaves to {@link PointwiseTable}: every dtype, contiguous and strided. */
    @TestFactory
    Stream<DynamicTest> pointwiseOpsReplayEagerBitwise() {
        List<DynamicTest> tests = new ArrayList<>();
        for (OpDef op : PointwiseTable.ops()) {
            for (DType dtype : OpDb.DTYPES) {
                for (boolean strided : new boolean[] {false, true}) {
                    String name = OpDb.key(op) + "/" + dtype.pyName() + (strided ? "/strided" : "/2x3");
                    OpDb.Args args = in -> {
                        Object[] tensors = new Object[PointwiseTable.tensorArgs(op)];
                        for (int i = 0; i < tensors.length; i++) tensors[i] = strided ? in.nc(2, 3) : in.t(2, 3);
                        return withNoneForOptionals(op, PointwiseTable.args(op, tensors));
                    };
                    tests.add(DynamicTest.dynamicTest(name, () -> Sweeps.named(name, () -> check(op, dtype, args))));
                }
            }
        }
        return tests.stream();
    }

    /**
     * The arguments with None for the trailing optional arguments that have no default ({@code str? rounding_mode} of
     * {@code div.Tensor_mode}): a caller must pass them, as the schema says and the graph's lint checks.
     */
    private static Object[] withNoneForOptionals(OpDef op, Object[] args) {
        List<Schema.Argument> params = op.schema().arguments();
        int n = args.length;
        while (n < params.size()
                && params.get(n).type().isOptional()
                && !params.get(n).hasDefault()) n++;
        return Arrays.copyOf(args, n);
    }

    /** {@link #checkQuietly}, with the ops' warnings (deprecated uint8 masks...) recorded instead of printed. */
    private static void check(OpDef op, DType dtype, OpDb.Args sample) {
        try (var _ = Warnings.catchWarnings()) {
            checkQuietly(op, dtype, sample);
        }
    }

    /**
     * Eager run, trace and replay each get freshly built arguments, so that an op writing its inputs is compared on the
     * inputs it would see, and eager outputs are copied before anything else runs.
     */
    private static void checkQuietly(OpDef op, DType dtype, OpDb.Args sample) {
        Call eagerCall = new Call(op, sample.build(SampleInputs.on(dtype, Device.CPU)));
        Generators generators = new Generators(eagerCall.args);
        TensorMeta[] eagerMeta;
        MemorySegment[] eagerBytes;
        try {
            Tensor[] eager = eagerCall.run();
            eagerMeta = Arrays.stream(eager).map(TensorMeta::of).toArray(TensorMeta[]::new);
            eagerBytes = Arrays.stream(eager).map(FxOpDbSweepTest::bytes).toArray(MemorySegment[]::new);
        } catch (RuntimeException refused) {
            generators.restore();
            Call traceCall = new Call(op, sample.build(SampleInputs.on(dtype, Device.CPU)));
            RuntimeException traced = assertThrows(RuntimeException.class, traceCall::trace);
            assertEquals(refused.getClass(), traced.getClass(), "tracing refuses as eager does: " + traced);
            return;
        }
        generators.restore();
        GraphModule gm = new Call(op, sample.build(SampleInputs.on(dtype, Device.CPU))).trace();
        gm.graph().lint();
        generators.restore();
        Tensor[] replayed = gm.call(new Call(op, sample.build(SampleInputs.on(dtype, Device.CPU))).inputs);
        assertEquals(eagerMeta.length, replayed.length, "number of outputs");
        List<Object> returned = gm.graph().nodes().getLast().args();
        for (int i = 0; i < replayed.length; i++) {
            assertEquals(eagerMeta[i], TensorMeta.of(replayed[i]), "output " + i + " metadata");
            assertEquals(eagerMeta[i], ((Node) returned.get(i)).meta(), "output " + i + " recorded");
            if (eagerBytes[i] != null) {
                long at = eagerBytes[i].mismatch(bytes(replayed[i]));
                assertEquals(-1L, at, "output " + i + ": the replay differs from eager at byte " + at);
            }
        }
        checkMetaTrace(op, dtype, sample, gm);
    }

    /** A call of {@code op} on {@code args} as a function of the distinct tensors among them. */
    private static final class Call {
        final OpDef op;
        final Object[] args;
        final Tensor[] inputs;

        Call(OpDef op, Object[] args) {
            this.op = op;
            this.args = args;
            this.inputs = tensorsOf(args);
        }

        Tensor[] apply(Tensor[] in) {
            return outputs(Dispatcher.call(op, substitute(args, inputs, in)));
        }

        Tensor[] run() {
            return apply(inputs);
        }

        GraphModule trace() {
            return Fx.makeFx(this::apply, inputs);
        }
    }

    /**
     * Tracing the meta-device sample records the CPU trace's nodes, in order, with the same metadata (on the meta
     * device). It may leave out calls that only check values, which a composite cannot read from meta tensors (one_hot
     * checks its class indices on CPU only, as ATen does). Where the meta device refuses the sample (a shape that
     * depends on the data), there is nothing to compare: {@code OpDbTest} checks those refusals.
     */
    private static void checkMetaTrace(OpDef op, DType dtype, OpDb.Args sample, GraphModule cpu) {
        Call call = new Call(op, sample.build(SampleInputs.on(dtype, Device.META)));
        try {
            call.run();
        } catch (RuntimeException refusedOnMeta) {
            return;
        }
        GraphModule meta = call.trace();
        List<Node> c = cpu.graph().nodes();
        int k = 0;
        for (Node fake : meta.graph().nodes()) {
            while (k < c.size() && !sameCall(c.get(k), fake)) k++;
            if (k == c.size()) fail("the meta trace records " + fake.target() + " where CPU does not: " + meta);
            TensorMeta m = fake.meta();
            assertEquals(c.get(k).meta(), m == null ? null : m.on(Device.CPU), "metadata of " + c.get(k));
            k++;
        }
    }

    private static boolean sameCall(Node cpu, Node meta) {
        return cpu.op().equals(meta.op()) && cpu.target().equals(meta.target());
    }

    /** The distinct tensors of the arguments (also inside tensor arrays), in order: the traced function's inputs. */
    private static Tensor[] tensorsOf(Object[] args) {
        Map<Tensor, Boolean> seen = new IdentityHashMap<>();
        List<Tensor> out = new ArrayList<>();
        for (Object a : args) {
            if (a instanceof Tensor t && seen.put(t, true) == null) out.add(t);
            if (a instanceof Tensor[] ts) for (Tensor t : ts) if (t != null && seen.put(t, true) == null) out.add(t);
        }
        return out.toArray(Tensor[]::new);
    }

    /** The arguments with each of {@code from} replaced by the tensor at the same index of {@code to}. */
    private static Object[] substitute(Object[] args, Tensor[] from, Tensor[] to) {
        Map<Tensor, Tensor> map = new IdentityHashMap<>();
        for (int i = 0; i < from.length; i++) map.put(from[i], to[i]);
        Object[] out = args.clone();
        for (int i = 0; i < out.length; i++) {
            if (out[i] instanceof Tensor t) out[i] = map.get(t);
            else if (out[i] instanceof Tensor[] ts) {
                Tensor[] c = ts.clone();
                for (int k = 0; k < c.length; k++) if (c[k] != null) c[k] = map.get(c[k]);
                out[i] = c;
            }
        }
        return out;
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

    /**
     * The bytes of {@code t}'s elements in row-major order (NaN payloads and signs of zero included), or null on meta.
     */
    private static MemorySegment bytes(Tensor t) {
        return t.isMeta() ? null : t.contiguous().clone().impl().storage().segment();
    }

    /** The states of the default generator and of every generator among the arguments, restorable. */
    private static final class Generators {
        private final List<Generator> generators = new ArrayList<>();
        private final List<byte[]> states = new ArrayList<>();

        Generators(Object[] args) {
            generators.add(Generator.defaultGenerator());
            for (Object a : args) if (a instanceof Generator g) generators.add(g);
            for (Generator g : generators) states.add(g.getStateBytes());
        }

        void restore() {
            for (int i = 0; i < generators.size(); i++) generators.get(i).setState(states.get(i));
        }
    }
}
