package org.jtorch.fx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
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
import org.jtorch.ops.OpDef;
import org.jtorch.testing.OpDb;
import org.jtorch.testing.PointwiseTable;
import org.jtorch.testing.SampleInputs;
import org.jtorch.testing.Sweeps;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link Decompositions#decompose} on every {@link OpDb} sample of a decomposable op (a composite, or a key of the
 * default table), in every dtype swept: a graph calling the op once, decomposed, holds only core ops and gives eager's
 * outputs. Bit for bit where only composites were expanded (the same kernels run); where a table rule ran, within
 * PyTorch's default {@code assert_close} tolerances for the dtype, because a rule rounds each of its steps where the
 * op's kernel rounds once (integers and bools exactly; float8_e4m3fn, for which PyTorch has no default, within one step
 * of its 3-bit mantissa). Samples eager refuses, and ops returning records, are skipped.
 */
class DecompositionOpDbTest {
    private static final Map<String, Decompositions.Rule> TABLE = Decompositions.coreAtenDecompositions();

    @TestFactory
    Stream<DynamicTest> decomposedGraphsHoldOnlyCoreOpsAndMatchEager() {
        List<DynamicTest> tests = new ArrayList<>();
        for (OpDb.Entry e : OpDb.ALL) {
            if (e.op().compositeFn() == null && !TABLE.containsKey(Graph.targetOf(e.op()))) continue;
            for (DType dtype : e.dtypes())
                for (OpDb.Sample s : e.samples()) {
                    String name = e.name() + "/" + dtype.pyName() + "/" + s.label();
                    tests.add(DynamicTest.dynamicTest(
                            name, () -> Sweeps.named(name, () -> check(e.op(), dtype, s.args()))));
                }
        }
        return tests.stream();
    }

    /**
     * The table's pointwise ops that {@link OpDb} leaves to {@link PointwiseTable}: every dtype, contiguous and not.
     */
    @TestFactory
    Stream<DynamicTest> pointwiseOpsOfTheTableDecomposeAndMatchEager() {
        List<DynamicTest> tests = new ArrayList<>();
        for (OpDef op : PointwiseTable.ops()) {
            if (!TABLE.containsKey(Graph.targetOf(op))) continue;
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
        assertTrue(tests.size() >= 4 * 2 * OpDb.DTYPES.size(), "the table's pointwise ops are swept");
        return tests.stream();
    }

    private static void check(OpDef op, DType dtype, OpDb.Args sample) {
        try (var _ = Warnings.catchWarnings()) {
            Object[] eagerArgs = sample.build(SampleInputs.on(dtype, Device.CPU));
            // every generator the sample draws from (the default one and any it passes, which each build shares)
            // starts each trace and the run where it started eager
            List<Generator> generators = new ArrayList<>(List.of(Generator.defaultGenerator()));
            for (Object a : eagerArgs) if (a instanceof Generator g) generators.add(g);
            List<byte[]> states =
                    generators.stream().map(Generator::getStateBytes).toList();
            Runnable restore = () -> {
                for (int i = 0; i < generators.size(); i++) generators.get(i).setState(states.get(i));
            };
            Object eagerResult;
            try {
                eagerResult = Dispatcher.call(op, eagerArgs);
            } catch (RuntimeException refused) {
                Assumptions.abort("eager refuses it: " + refused.getMessage());
                return;
            }
            if (!(eagerResult instanceof Tensor) && !(eagerResult instanceof Tensor[])) {
                Assumptions.abort("returns " + (eagerResult == null ? "nothing" : "a record"));
            }
            Tensor[] eager = eagerResult instanceof Tensor t ? new Tensor[] {t} : (Tensor[]) eagerResult;
            MemorySegment[] eagerBytes = new MemorySegment[eager.length];
            for (int i = 0; i < eager.length; i++) eagerBytes[i] = FunctionalizationChecks.bytes(eager[i]);

            Object[] args = sample.build(SampleInputs.on(dtype, Device.CPU));
            Tensor[] inputs = tensorsOf(args);
            GraphModule gm = oneCall(op, args, inputs, eager.length, eagerResult instanceof Tensor[]);
            restore.run();
            GraphModule expanded = Decompositions.decompose(gm, Map.of(), tensorsOf(sampleArgs(sample, dtype)));
            boolean ruleRan = expanded.graph().nodes().stream()
                    .anyMatch(n -> TABLE.containsKey(n.target())
                            || n.opDef() != null && TABLE.containsKey(Graph.targetOf(n.opDef())));
            restore.run();
            GraphModule d = Decompositions.decompose(gm, TABLE, tensorsOf(sampleArgs(sample, dtype)));
            for (Node n : d.graph().nodes()) {
                if (!n.op().equals(Node.CALL_FUNCTION) || n.target().equals(Node.GETITEM)) continue;
                if (!Decompositions.isCore(Graph.targetOf(n.opDef()))) fail(n.target() + " is not core:\n" + d);
            }
            restore.run();
            Tensor[] out = d.call(tensorsOf(sampleArgs(sample, dtype)));
            assertEquals(eager.length, out.length, "number of outputs");
            for (int i = 0; i < eager.length; i++) {
                assertEquals(eager[i].dtype(), out[i].dtype(), "dtype of output " + i);
                assertArrayEquals(eager[i].shape(), out[i].shape(), "shape of output " + i);
                if (ruleRan) assertClose(eager[i], out[i], i, d);
                else {
                    int k = i;
                    long at = eagerBytes[i].mismatch(FunctionalizationChecks.bytes(out[i]));
                    assertEquals(-1L, at, () -> "output " + k + " differs from eager at byte " + at + ":\n" + d);
                }
            }
        }
    }

    private static Object[] sampleArgs(OpDb.Args sample, DType dtype) {
        return sample.build(SampleInputs.on(dtype, Device.CPU));
    }

    /** A graph of one call of {@code op} on {@code args}, its tensors placeholders, returning its outputs. */
    private static GraphModule oneCall(OpDef op, Object[] args, Tensor[] inputs, int outputs, boolean tuple) {
        Graph g = new Graph();
        Map<Tensor, Node> nodes = new IdentityHashMap<>();
        for (Tensor t : inputs) {
            Node p = g.placeholder("arg" + nodes.size());
            p.setMeta(TensorMeta.of(t));
            nodes.put(t, p);
        }
        Object[] graphArgs = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            graphArgs[i] = switch (args[i]) {
                case Tensor t -> nodes.get(t);
                case Tensor[] ts -> {
                    List<Node> list = new ArrayList<>();
                    for (Tensor t : ts) list.add(t == null ? null : nodes.get(t));
                    yield list;
                }
                case null, default -> args[i];
            };
        }
        Node call = g.callFunction(op, graphArgs);
        Node[] results = new Node[outputs];
        for (int i = 0; i < outputs; i++) results[i] = tuple ? g.getitem(call, i) : call;
        g.output(results);
        return new GraphModule(g, Map.of());
    }

    /**
     * {@code torch.testing.assert_close}'s defaults: {@code |out - eager| <= atol + rtol * |eager|}, NaN where eager
     * has NaN, the same infinities; exact for integers and bools.
     */
    private static void assertClose(Tensor eager, Tensor out, int index, GraphModule d) {
        double rtol, atol;
        switch (eager.dtype()) {
            case FLOAT8_E4M3FN -> {
                rtol = 0.125; // one step of its 3-bit mantissa: a rule's intermediate rounds to float8 too
                atol = 1e-5;
            }
            case FLOAT16 -> {
                rtol = 1e-3;
                atol = 1e-5;
            }
            case BFLOAT16 -> {
                rtol = 1.6e-2;
                atol = 1e-5;
            }
            case FLOAT32, COMPLEX64 -> {
                rtol = 1.3e-6;
                atol = 1e-5;
            }
            case FLOAT64, COMPLEX128 -> {
                rtol = 1e-7;
                atol = 1e-7;
            }
            default -> {
                rtol = 0;
                atol = 0;
            }
        }
        double[] e = eager.toDoubleArray(), o = out.toDoubleArray();
        for (int k = 0; k < e.length; k++) {
            boolean ok = Double.isNaN(e[k])
                    ? Double.isNaN(o[k])
                    : Double.isInfinite(e[k]) ? e[k] == o[k] : Math.abs(o[k] - e[k]) <= atol + rtol * Math.abs(e[k]);
            if (!ok) fail("output " + index + " element " + k + ": " + o[k] + ", eager " + e[k] + ":\n" + d);
        }
        assertTrue(e.length == o.length);
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
}
