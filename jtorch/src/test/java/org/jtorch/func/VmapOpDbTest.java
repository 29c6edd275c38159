package org.jtorch.func;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.ops.OpDef;
import org.jtorch.testing.OpDb;
import org.jtorch.testing.PointwiseTable;
import org.jtorch.testing.SampleInputs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.TestAbortedException;

/**
 * vmap(op) equals the per-example loop for every op of the table: each sample of {@link OpDb} (and the pointwise ops,
 * which that table leaves to their own sweep) is run with each tensor argument mapped alone (the others unmapped,
 * in_dims None) over dim 0 and over its last dim, and with every tensor argument mapped over dim 0. The reference is
 * the op called on each example's arguments and stacked, with no vmap involved. Examples differ: floating inputs of
 * example b are scaled by (1 - b/10). Samples the op refuses must be refused under vmap too. Random ops are covered by
 * the randomness tests, not here.
 */
class VmapOpDbTest {
    private static final int B = 3;
    /** Ops that refuse some inputs for their strides alone (a view of a transposed tensor). */
    private static final java.util.Set<String> LAYOUT_REFUSALS =
            java.util.Set.of("view", "view_as_complex", "view.dtype", "take_along_dim");
    /** Views whose checks read the last dim's stride, which a batch dim mapped last changes (as in PyTorch). */
    private static final java.util.Set<String> LAST_STRIDE_VIEWS = java.util.Set.of("view_as_complex", "view.dtype");
    /** The first of these the op accepts for a sample is swept. */
    private static final List<DType> DTYPES = List.of(DType.FLOAT64, DType.INT64, DType.BOOL, DType.COMPLEX128);

    @BeforeAll
    static void quiet() {
        VmapSettings.setFallbackWarningEnabled(false);
    }

    @AfterAll
    static void loud() {
        VmapSettings.setFallbackWarningEnabled(true);
    }

    /** One sample: the op and how to build its arguments for a dtype. */
    private record Case(String name, OpDef op, OpDb.Args args, boolean layoutFree) {}

    private static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (OpDb.Entry e : OpDb.ALL) {
            if (e.op().has(OpDef.Flag.RANDOM)) continue;
            // as_strided addresses storage: an example's view of the stacked input has other strides and offset than
            // the example built alone, so the loop it is compared with is not the same computation.
            if (e.op() == org.jtorch.ops.ShapeOps.AS_STRIDED) continue;
            for (OpDb.Sample s : e.samples())
                cases.add(new Case(e.name() + "/" + s.label(), e.op(), s.args(), s.layoutFree()));
        }
        for (OpDef op : PointwiseTable.ops()) {
            int arity = PointwiseTable.tensorArgs(op);
            long[] full = {2, 3}, row = {3};
            cases.add(new Case(OpDb.key(op) + "/same", op, in -> pointwiseArgs(in, op, arity, full, full), true));
            cases.add(new Case(OpDb.key(op) + "/broadcast", op, in -> pointwiseArgs(in, op, arity, row, full), true));
        }
        return cases;
    }

    private static Object[] pointwiseArgs(SampleInputs in, OpDef op, int arity, long[] first, long[] rest) {
        Object[] tensors = new Object[arity];
        for (int i = 0; i < arity; i++) tensors[i] = i == 0 ? in.unit(first) : in.unit(rest);
        return PointwiseTable.args(op, tensors);
    }

    @TestFactory
    Stream<DynamicTest> vmapEqualsTheLoop() {
        return cases().stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> check(c)));
    }

    private static void check(Case c) {
        for (DType dtype : DTYPES) {
            final Object[][] examples = new Object[B][];
            try {
                for (int b = 0; b < B; b++)
                    examples[b] = example(c.args().build(SampleInputs.on(dtype, Device.CPU)), b);
                Dispatcher.call(c.op(), examples[0]);
            } catch (RuntimeException refused) {
                continue;
            }
            sweep(c, examples);
            return;
        }
        // Refused in every dtype: an error sample. vmap over its first tensor must refuse too, unless the refusal is
        // about the layout, which stacking the examples into one batch changes.
        if (LAYOUT_REFUSALS.contains(OpDb.key(c.op()))) return;
        final Object[] args = c.args().build(SampleInputs.on(DType.FLOAT64, Device.CPU));
        int first = -1;
        for (int i = 0; i < args.length && first < 0; i++) if (args[i] instanceof Tensor) first = i;
        if (first < 0) throw new TestAbortedException("no tensor argument");
        Object[] batchedArgs = args.clone();
        batchedArgs[first] = Torch.stack(List.of((Tensor) args[first], (Tensor) args[first]));
        int at = first;
        assertThrows(
                RuntimeException.class,
                () -> Func.vmap(
                                a -> {
                                    Object[] x = args.clone();
                                    x[at] = a[0];
                                    return Dispatcher.call(c.op(), x);
                                },
                                VmapOptions.defaults().inDims(Arrays.asList(0)))
                        .apply(new Object[] {batchedArgs[at]}),
                c.name() + ": refused in every dtype, but vmap over its first tensor computed it");
    }

    /** Example b of a sample: floating tensors scaled by (1 - b/10), everything else as built. */
    private static Object[] example(Object[] args, int b) {
        Object[] a = args.clone();
        for (int i = 0; i < a.length; i++) {
            if (a[i] instanceof Tensor t) a[i] = vary(t, b);
            else if (a[i] instanceof Tensor[] ts) {
                Tensor[] v = ts.clone();
                for (int k = 0; k < v.length; k++) if (v[k] != null) v[k] = vary(v[k], b);
                a[i] = v;
            }
        }
        return a;
    }

    private static Tensor vary(Tensor t, int b) {
        if (b == 0 || !(t.isFloatingPoint() || t.isComplex())) return t;
        return t.mul(1 - b / 10.0).to(t.dtype());
    }

    private static void sweep(Case c, Object[][] examples) {
        Object[] base = examples[0];
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < base.length; i++) {
            if (base[i] instanceof Tensor
                    || base[i] instanceof Tensor[] ts && Arrays.stream(ts).anyMatch(java.util.Objects::nonNull)) {
                positions.add(i);
            }
        }
        for (int i : positions) {
            checkMapped(c, examples, List.of(i), false);
            // A layout-dependent op (as_strided, view_as_complex) sees other strides through a batch dim that is not
            // first.
            if (c.layoutFree() && !LAST_STRIDE_VIEWS.contains(OpDb.key(c.op())))
                checkMapped(c, examples, List.of(i), true);
        }
        if (positions.size() > 1) checkMapped(c, examples, positions, false);
    }

    /** Maps the arguments at {@code mapped} over dim 0 (or their last dim) and compares with the loop. */
    private static void checkMapped(Case c, Object[][] examples, List<Integer> mapped, boolean lastDim) {
        Object[] base = examples[0];
        String what = c.name() + " mapping args " + mapped + (lastDim ? " over their last dim" : " over dim 0");
        // The loop: example b has the mapped arguments of example b and the unmapped ones of example 0.
        Object[] expected = new Object[B];
        boolean refused = false;
        for (int b = 0; b < B; b++) {
            Object[] a = base.clone();
            for (int i : mapped) a[i] = examples[b][i];
            try {
                expected[b] = Dispatcher.call(c.op(), a);
            } catch (RuntimeException e) {
                refused = true;
            }
        }
        Object[] inputs = new Object[mapped.size()];
        Object[] dims = new Object[mapped.size()];
        for (int k = 0; k < mapped.size(); k++) {
            int i = mapped.get(k);
            if (base[i] instanceof Tensor[] ts) {
                Tensor[] stacked = new Tensor[ts.length];
                for (int j = 0; j < ts.length; j++) {
                    List<Tensor> per = new ArrayList<>();
                    for (int b = 0; b < B; b++) per.add(((Tensor[]) examples[b][i])[j]);
                    stacked[j] = per.get(0) == null ? null : Torch.stack(per);
                }
                inputs[k] = stacked;
                dims[k] = 0;
                if (lastDim) return; // lists of tensors: dim 0 only
            } else {
                List<Tensor> per = new ArrayList<>();
                for (int b = 0; b < B; b++) per.add((Tensor) examples[b][i]);
                int d = lastDim ? ((Tensor) base[i]).dim() : 0;
                if (lastDim && d == 0) return; // same as dim 0
                inputs[k] = Torch.stack(per, d);
                dims[k] = d;
            }
        }
        java.util.function.Function<Object[], Object> fn = a -> {
            Object[] x = base.clone();
            for (int k = 0; k < mapped.size(); k++) x[mapped.get(k)] = a[k];
            return Dispatcher.call(c.op(), x);
        };
        String key = BatchRules.key(c.op());
        boolean dynamic = c.op().has(OpDef.Flag.DYNAMIC_OUTPUT_SHAPE) || VmapOpDbLists.DATA_DEPENDENT.contains(key);
        boolean maskIndex =
                key.startsWith("index") && c.name().contains("mask"); // a batched mask selects a data-dependent count
        Object got;
        try {
            got = Func.vmap(fn, VmapOptions.defaults().inDims(Arrays.asList(dims)))
                    .apply(inputs);
        } catch (RuntimeException e) {
            if (refused
                    || dynamic
                    || maskIndex && String.valueOf(e.getMessage()).contains("dynamic shape")) return;
            throw new AssertionError(what + ": vmap refused what the loop computed: " + e, e);
        }
        if (refused) fail(what + ": the loop refused but vmap computed " + got);
        compare(what, expected, got);
    }

    private static void compare(String what, Object[] expected, Object got) {
        if (expected[0] instanceof Tensor) {
            List<Tensor> per = new ArrayList<>();
            for (Object e : expected) per.add((Tensor) e);
            same(what, Torch.stack(per), (Tensor) got);
        } else if (expected[0] instanceof Tensor[] first) {
            Tensor[] g = (Tensor[]) got;
            assertEquals(first.length, g.length, what + ": number of outputs");
            for (int k = 0; k < first.length; k++) {
                List<Tensor> per = new ArrayList<>();
                for (Object e : expected) per.add(((Tensor[]) e)[k]);
                same(what + " output " + k, Torch.stack(per), g[k]);
            }
        } else {
            List<Object> el = PyTree.leaves(expected[0]), gl = PyTree.leaves(got);
            assertEquals(el.size(), gl.size(), what + ": outputs");
            for (int k = 0; k < el.size(); k++) {
                List<Tensor> per = new ArrayList<>();
                for (Object e : expected) per.add((Tensor) PyTree.leaves(e).get(k));
                same(what + " output " + k, Torch.stack(per), (Tensor) gl.get(k));
            }
        }
    }

    private static void same(String what, Tensor want, Tensor got) {
        assertArrayEquals(want.shape(), got.shape(), what + ": shape");
        assertEquals(want.dtype(), got.dtype(), what + ": dtype");
        double[] w = want.toDoubleArray(), g = got.toDoubleArray();
        for (int i = 0; i < w.length; i++) {
            if (Double.isNaN(w[i]) && Double.isNaN(g[i]) || w[i] == g[i]) continue;
            double tol = 1e-9 * Math.max(1, Math.abs(w[i]));
            if (Math.abs(w[i] - g[i]) > tol) fail(what + ": element " + i + " is " + g[i] + ", the loop gives " + w[i]);
        }
    }
}
