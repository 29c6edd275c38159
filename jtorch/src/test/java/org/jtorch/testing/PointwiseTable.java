package org.jtorch.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.jtorch.dispatch.Schema;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.OpRegistry;

/**
 * The pointwise ops as the generic sweeps over them see them: which ops, how many tensor arguments each takes, and the
 * fixed non-tensor arguments the sweeps pass with them.
 */
public final class PointwiseTable {
    private PointwiseTable() {}

    /**
     * Every pointwise op ({@link OpDef.Flag#POINTWISE}) that {@link OpDb} has no entry for: the ops whose arguments are
     * their tensors and the fixed {@link #extraArgs}, so that one generic sweep covers them.
     */
    public static List<OpDef> ops() {
        Set<OpDef> inTable = Collections.newSetFromMap(new IdentityHashMap<>());
        for (OpDb.Entry e : OpDb.ALL) inTable.add(e.op());
        List<OpDef> ops = new ArrayList<>();
        for (OpDef op : OpRegistry.all()) if (op.has(OpDef.Flag.POINTWISE) && !inTable.contains(op)) ops.add(op);
        return ops;
    }

    /** Positional arguments of type {@code Tensor} (not optional, not a list), from the typed schema. */
    public static int tensorArgs(OpDef op) {
        int n = 0;
        for (Schema.Argument a : op.schema().positional()) if (a.type().isTensor()) n++;
        return n;
    }

    /**
     * An argument list for {@code op}: its arguments in schema order, the tensor ones taken from {@code tensors} in
     * turn and the others fixed ({@link #fixedArgs}), so an op whose schema puts a non-tensor first
     * ({@code polygamma(int n, Tensor self)}) is called right.
     */
    public static Object[] args(OpDef op, Object... tensors) {
        Object[] fixed = fixedArgs(op);
        List<Object> args = new ArrayList<>();
        int t = 0, f = 0;
        for (Schema.Argument a : op.schema().arguments()) {
            if (a.type().isTensor()) args.add(tensors[t++]);
            else if (f < fixed.length) args.add(fixed[f++]);
            else break; // the rest keep their defaults
        }
        return args.toArray();
    }

    /** The non-tensor arguments, in schema order, for ops whose schema has more than tensors. */
    private static Object[] fixedArgs(OpDef op) {
        return switch (op.name()) {
            case "softplus" -> new Object[] {1.0, 20.0};
            case "div" -> new Object[] {"trunc"};
            case "logit" -> new Object[] {null};
            case "gelu" -> new Object[] {"none"};
            case "gelu_backward" -> new Object[] {"none"};
            case "threshold_backward" -> new Object[] {0.25};
            case "round" -> new Object[] {0L};
            case "nan_to_num" -> new Object[] {null, null, null};
            case "polygamma" -> new Object[] {2L};
            default -> new Object[0];
        };
    }
}
