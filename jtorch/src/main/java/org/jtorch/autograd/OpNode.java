package org.jtorch.autograd;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.ops.InputMask;
import org.jtorch.ops.OpDef;

/** The backward node of one recorded op: runs the op's VJP rule on what it saved. */
final class OpNode extends Node {
    private final OpDef op;
    private final String name;
    private Object[] args;
    private Tensor[] outputs;
    private Tensor[] checked;
    private int[] versions;
    private boolean released;

    OpNode(
            OpDef op,
            Edge[] next,
            long[][] inputShapes,
            DType[] inputDtypes,
            long[][] outputShapes,
            DType[] outputDtypes) {
        super(next, inputShapes, inputDtypes, outputShapes, outputDtypes);
        this.op = op;
        this.name = backwardName(op.name());
    }

    /** The op this node differentiates. */
    OpDef op() {
        return op;
    }

    @Override
    boolean materializeGrads() {
        return !op.vjpReadsMissingGradsAsNull();
    }

    /** Saves what the rule reads; {@code checked} tensors must keep their version until backward. */
    void save(Object[] args, Tensor[] outputs, Tensor[] checked, int[] versions) {
        this.args = args;
        this.outputs = outputs;
        this.checked = checked;
        this.versions = versions;
    }

    /** PyTorch's naming: {@code mul} → {@code MulBackward0}, {@code _to_copy} → {@code ToCopyBackward0}. */
    static String backwardName(String op) {
        StringBuilder sb = new StringBuilder();
        for (String part : op.split("_")) {
            if (!part.isEmpty())
                sb.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return sb.append("Backward0").toString();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    Tensor[] apply(Tensor[] gradOutputs) {
        if (released) throw freedError();
        OpDef.MaskedVjp rule = op.vjp();
        if (rule == null) throw new TorchException("the derivative for '" + op.name() + "' is not implemented.");
        for (int i = 0; i < checked.length; i++) {
            Tensor t = checked[i];
            if (t.version() != versions[i]) throw modifiedError(t, name, versions[i]);
        }
        boolean[] mask = new boolean[next.length];
        for (int i = 0; i < mask.length; i++) mask[i] = next[i] != null;
        return rule.apply(args, outputs, gradOutputs, InputMask.of(mask));
    }

    @Override
    void release() {
        released = true;
        args = null;
        outputs = null;
        checked = null;
    }
}
