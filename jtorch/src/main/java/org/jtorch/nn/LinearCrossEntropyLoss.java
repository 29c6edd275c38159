package org.jtorch.nn;

import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;
import org.jtorch.nn.functional.F;
import org.jtorch.nn.functional.LinearCrossEntropyArgs;

/**
 * {@code torch.nn.LinearCrossEntropyLoss} (2.15): an LM head and its loss in one module. It owns {@code linear}, an
 * {@link Linear} with the flat weight {@code (C·prod(out_features), F)}, reshapes it to {@code (C, *out_features, F)}
 * on every call and applies {@code F.linear_cross_entropy} with the module's arguments; the class weight, if any, is
 * the buffer {@code weight}.
 */
public final class LinearCrossEntropyLoss extends Module {
    private final long inFeatures;
    private final long numClasses;
    private final long[] outFeatures;
    private final LinearCrossEntropyArgs args;

    /** {@code LinearCrossEntropyLoss(in_features, num_classes)}: no bias, 'mean', reference path. */
    public LinearCrossEntropyLoss(long inFeatures, long numClasses) {
        this(inFeatures, numClasses, new long[0], false, Torch.getDefaultDtype(), LinearCrossEntropyArgs.defaults());
    }

    /**
     * {@code LinearCrossEntropyLoss(in_features, num_classes, out_features=, bias=, dtype=, weight=, reduction=,
     * ignore_index=, label_smoothing=, options=)}; {@code args} carries the loss's keyword arguments (its
     * {@code linearBias} must be null: the bias is the module's own parameter).
     */
    public LinearCrossEntropyLoss(
            long inFeatures,
            long numClasses,
            long[] outFeatures,
            boolean bias,
            DType dtype,
            LinearCrossEntropyArgs args) {
        if (args.linearBias() != null) {
            throw new IllegalArgumentException(
                    "LinearCrossEntropyLoss owns its bias; pass bias=true instead of a linear_bias");
        }
        Tensor w = args.weight();
        if (w != null && (w.dim() != 1 || w.numel() != numClasses)) {
            throw new IllegalArgumentException("LinearCrossEntropyLoss: weight must have size num_classes = "
                    + numClasses + ", but got shape " + Shapes.str(w.shape()));
        }
        this.inFeatures = inFeatures;
        this.numClasses = numClasses;
        this.outFeatures = outFeatures.clone();
        long flat = numClasses;
        for (long d : outFeatures) flat *= d;
        register("linear", new Linear(inFeatures, flat, bias, dtype));
        registerBuffer("weight", w);
        this.args = args.weight(null);
    }

    /** {@code self.linear}. */
    public Linear linear() {
        return (Linear) getSubmodule("linear");
    }

    /** The loss of {@code input} (N, F) or (F) against {@code target}. */
    public Tensor forward(Tensor input, Tensor target) {
        if (input.dim() < 1 || input.size(-1) != inFeatures) {
            throw new TorchException("LinearCrossEntropyLoss: expected input with in_features = " + inFeatures
                    + " in its last dim, but got shape " + Shapes.str(input.shape()));
        }
        long[] shape = new long[outFeatures.length + 2];
        shape[0] = numClasses;
        System.arraycopy(outFeatures, 0, shape, 1, outFeatures.length);
        shape[shape.length - 1] = inFeatures;
        Linear lin = linear();
        Tensor bias = lin.bias() == null ? null : lin.bias().reshape(Arrays.copyOf(shape, shape.length - 1));
        return F.linearCrossEntropy(
                input,
                lin.weight().reshape(shape),
                target,
                args.linearBias(bias).weight(getBuffer("weight")));
    }

    @Override
    protected String extraRepr() {
        return "in_features=" + inFeatures + ", num_classes=" + numClasses
                + (outFeatures.length > 0 ? ", out_features=" + Shapes.str(outFeatures) : "")
                + ", reduction='" + args.reduction().pytorchName() + "'";
    }
}
