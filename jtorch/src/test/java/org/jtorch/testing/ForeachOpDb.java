package org.jtorch.testing;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.ops.FusedOptimizerOps;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.OpRegistry;

/**
 * The {@link OpDb} entries of the list ops: every registered {@code _foreach_*} op, its samples built from its schema
 * (a list argument holds a 2x3 and a 3-element tensor, position by position alike; a scalar list one value per
 * position), and the fused optimizer steps.
 */
final class ForeachOpDb {
    private ForeachOpDb() {}

    static List<OpDb.Entry> entries() {
        List<OpDb.Entry> entries = new ArrayList<>();
        for (OpDef op : OpRegistry.all()) {
            if (op.name().startsWith("_foreach_")) entries.add(new OpDb.Entry(op, OpDb.DTYPES, foreachSamples(op)));
        }
        for (OpDef op : List.of(
                FusedOptimizerOps.SGD, FusedOptimizerOps.ADAM, FusedOptimizerOps.ADAMW, FusedOptimizerOps.ADAGRAD)) {
            entries.add(new OpDb.Entry(op, OpDb.DTYPES, fusedSamples(op)));
        }
        return entries;
    }

    /** The parameter types of the schema, in order ({@code Tensor(a!)[]} read as {@code Tensor[]}). */
    private static List<String> paramTypes(OpDef op) {
        return op.schema().arguments().stream().map(a -> a.type().toString()).toList();
    }

    private static List<OpDb.Sample> foreachSamples(OpDef op) {
        boolean mm = op.name().equals("_foreach_mm");
        List<OpDb.Sample> samples = new ArrayList<>();
        long[][] shapes = mm ? new long[][] {{2, 3}, {1, 2}} : new long[][] {{2, 3}, {3}};
        long[][] otherShapes = mm ? new long[][] {{3, 2}, {2, 2}} : null;
        samples.add(new OpDb.Sample("lists", in -> args(op, in, shapes, otherShapes, false), true));
        samples.add(new OpDb.Sample("transposed", in -> args(op, in, new long[][] {{3, 3}}, null, true), true));
        samples.add(new OpDb.Sample("empty-list", in -> args(op, in, new long[0][], null, false), true));
        return samples;
    }

    /**
     * The arguments of a foreach op: lists of tensors of {@code shapes} ({@code otherShapes} for the lists after the
     * first, if given), transposed ones if asked; scalars and scalar lists per position.
     */
    private static Object[] args(OpDef op, SampleInputs in, long[][] shapes, long[][] otherShapes, boolean transposed) {
        List<String> types = paramTypes(op);
        boolean scalarBase = op.schema().overloadName().contains("ScalarAndTensor");
        List<Object> a = new ArrayList<>();
        int lists = 0;
        for (String type : types) {
            switch (type) {
                case "Tensor[]" -> {
                    long[][] sh = lists > 0 && otherShapes != null ? otherShapes : shapes;
                    Tensor[] ts = new Tensor[sh.length];
                    for (int i = 0; i < sh.length; i++) ts[i] = transposed ? in.nc(sh[i]) : in.unit(sh[i]);
                    a.add(ts);
                    lists++;
                }
                case "Tensor" -> a.add(in.unit());
                case "Scalar[]" -> {
                    double[] values = new double[shapes.length];
                    for (int i = 0; i < values.length; i++) values[i] = 0.5 + i;
                    a.add(values);
                }
                case "Scalar" -> a.add(scalarBase ? Scalar.of(2.0) : 2.0);
                case "ScalarType?" -> a.add(null);
                case "bool" -> a.add(false);
                default -> throw new IllegalArgumentException(op + ": no sample for a " + type);
            }
        }
        return a.toArray();
    }

    /**
     * The fused steps update their arguments in place, which the table's functional call cannot compare: their samples
     * are the calls they refuse (empty and misaligned lists, integer parameters), on every device alike.
     */
    private static List<OpDb.Sample> fusedSamples(OpDef op) {
        List<OpDb.Sample> samples = new ArrayList<>();
        samples.add(new OpDb.Sample("empty", in -> fusedArgs(op, new Tensor[0], new Tensor[0]), true));
        samples.add(new OpDb.Sample(
                "misaligned", in -> fusedArgs(op, new Tensor[] {in.unit(2, 3)}, new Tensor[] {in.unit(3)}), true));
        samples.add(new OpDb.Sample(
                "integer-params",
                in -> fusedArgs(op, new Tensor[] {in.t(DType.INT64, 2)}, new Tensor[] {in.t(DType.INT64, 2)}),
                true));
        return samples;
    }

    private static Object[] fusedArgs(OpDef op, Tensor[] params, Tensor[] grads) {
        Tensor[] none = new Tensor[0];
        Tensor[] steps = new Tensor[params.length];
        for (int i = 0; i < steps.length; i++) steps[i] = org.jtorch.Torch.scalarTensor(1.0, DType.FLOAT32);
        return switch (op.name()) {
            case "_fused_sgd_" ->
                new Object[] {params, grads, none, 0.0, 0.0, 0.1, 0.0, false, false, true, null, null};
            case "_fused_adam_", "_fused_adamw_" ->
                new Object[] {
                    params,
                    grads,
                    params.clone(),
                    params.clone(),
                    none,
                    steps,
                    0.1,
                    0.9,
                    0.999,
                    0.0,
                    1e-8,
                    false,
                    false,
                    null,
                    null
                };
            default -> new Object[] {params, grads, params.clone(), steps, 0.1, 0.0, 0.0, 1e-10, false, null, null};
        };
    }
}
