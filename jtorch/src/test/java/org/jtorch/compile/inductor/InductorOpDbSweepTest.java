package org.jtorch.compile.inductor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Warnings;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Schema;
import org.jtorch.fx.Fx;
import org.jtorch.fx.GraphModule;
import org.jtorch.ops.OpDef;
import org.jtorch.testing.OpDb;
import org.jtorch.testing.PointwiseTable;
import org.jtorch.testing.SampleInputs;
import org.jtorch.testing.Sweeps;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every op of {@link OpDb} and {@link PointwiseTable}, traced with {@code makeFx} and compiled by the backend, gives
 * the eager result for every sample and dtype swept (contiguous and strided for the pointwise ops): the same shapes and
 * dtypes, integers and booleans exactly, floats within float rounding of the fused computation (NaN where eager has
 * NaN). Lowered ops run as generated kernels, the others as extern calls, so this checks lowering, code generation and
 * the extern path together. Random ops and ops eager refuses for a sample are skipped.
 */
class InductorOpDbSweepTest {
    @TestFactory
    Stream<DynamicTest> compiledOpsMatchEager() {
        List<DynamicTest> tests = new ArrayList<>();
        for (OpDb.Entry e : OpDb.ALL) {
            if (e.op().has(OpDef.Flag.RANDOM)) continue;
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
    Stream<DynamicTest> compiledPointwiseOpsMatchEager() {
        List<DynamicTest> tests = new ArrayList<>();
        for (OpDef op : PointwiseTable.ops()) {
            if (op.has(OpDef.Flag.RANDOM)) continue;
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

    private static Object[] withNoneForOptionals(OpDef op, Object[] args) {
        List<Schema.Argument> params = op.schema().arguments();
        int n = args.length;
        while (n < params.size()
                && params.get(n).type().isOptional()
                && !params.get(n).hasDefault()) n++;
        return Arrays.copyOf(args, n);
    }

    private static void check(OpDef op, DType dtype, OpDb.Args sample) {
        try (var _ = Warnings.catchWarnings()) {
            Object[] eagerArgs = sample.build(SampleInputs.on(dtype, Device.CPU));
            Tensor[] eager;
            try {
                eager = outputs(Dispatcher.call(op, eagerArgs));
            } catch (RuntimeException refused) {
                return;
            }
            Object[] args = sample.build(SampleInputs.on(dtype, Device.CPU));
            Tensor[] inputs = tensorsOf(args);
            GraphModule gm;
            try {
                gm = Fx.makeFx(in -> outputs(Dispatcher.call(op, substitute(args, inputs, in))), inputs);
            } catch (RuntimeException untraceable) {
                return; // FxOpDbSweepTest checks that tracing refuses what eager refuses
            }
            Object[] fresh = sample.build(SampleInputs.on(dtype, Device.CPU));
            Tensor[] compiled = Inductor.compile(gm).call(tensorsOf(fresh));
            assertEquals(eager.length, compiled.length, "number of outputs");
            Tensor[] inFloat = null;
            for (int i = 0; i < eager.length; i++) {
                Tensor e = eager[i], c = compiled[i];
                assertArrayEquals(e.shape(), c.shape(), "output " + i + " shape");
                assertEquals(e.dtype(), c.dtype(), "output " + i + " dtype");
                if (e.dtype().isComplex()) continue;
                String mismatch = mismatch(e, c, "output " + i);
                if (mismatch != null && (dtype == DType.FLOAT16 || dtype == DType.BFLOAT16)) {
                    // fused kernels keep half-precision intermediates in float32, as PyTorch's inductor does; eager
                    // rounds after every op of a composite, so the reference is eager computed in float32, rounded
                    if (inFloat == null) inFloat = outputs(Dispatcher.call(op, inFloat32(eagerArgs)));
                    mismatch = mismatch(inFloat[i].to(dtype), c, "output " + i + " (against float32 eager)");
                }
                if (mismatch != null) throw new AssertionError(mismatch);
            }
        }
    }

    private static Object[] inFloat32(Object[] args) {
        Object[] out = args.clone();
        for (int i = 0; i < out.length; i++) {
            if (out[i] instanceof Tensor t && t.isFloatingPoint()) out[i] = t.to(DType.FLOAT32);
        }
        return out;
    }

    /** Null when {@code actual} is within the dtype's rounding of {@code expected}, else what differs. */
    private static String mismatch(Tensor expected, Tensor actual, String what) {
        double[] e = expected.toDoubleArray(), a = actual.toDoubleArray();
        double tol =
                switch (expected.dtype()) {
                    case FLOAT16, BFLOAT16 -> 1e-2;
                    case FLOAT32 -> 1e-5;
                    case FLOAT64 -> 1e-12;
                    default -> 0;
                };
        for (int i = 0; i < e.length; i++) {
            if (Double.isNaN(e[i]) && Double.isNaN(a[i])) continue;
            if (e[i] == a[i]) continue;
            double err = Math.abs(e[i] - a[i]);
            if (!(err <= tol * Math.max(1, Math.abs(e[i])))) {
                return what + " element " + i + ": expected " + e[i] + " but was " + a[i];
            }
        }
        return null;
    }

    private static Tensor[] tensorsOf(Object[] args) {
        Map<Tensor, Boolean> seen = new IdentityHashMap<>();
        List<Tensor> out = new ArrayList<>();
        for (Object a : args) {
            if (a instanceof Tensor t && seen.put(t, true) == null) out.add(t);
            if (a instanceof Tensor[] ts) for (Tensor t : ts) if (t != null && seen.put(t, true) == null) out.add(t);
        }
        return out.toArray(Tensor[]::new);
    }

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
}
