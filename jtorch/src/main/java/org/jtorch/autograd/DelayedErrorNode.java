package org.jtorch.autograd;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;

/**
 * PyTorch's {@code DelayedError}: a node that raises when a backward reaches it. It marks results that must not be
 * differentiated (the gradients of a once-differentiable function), so the error happens at the double backward, not
 * when the first backward builds its graph.
 */
final class DelayedErrorNode extends Node {
    private final String message;

    private DelayedErrorNode(String message, long[][] shapes, DType[] dtypes) {
        super(new Edge[0], new long[0][], new DType[0], shapes, dtypes);
        this.message = message;
    }

    /** Aliases of {@code results} whose history is a node raising {@code message}; nulls stay null. */
    static Tensor[] wrap(String message, Tensor[] results) {
        long[][] shapes = new long[results.length][];
        DType[] dtypes = new DType[results.length];
        for (int i = 0; i < results.length; i++) { // a null slot has no tensor, so no gradient ever arrives there
            shapes[i] = results[i] == null ? new long[0] : results[i].impl().shapeRef();
            dtypes[i] = results[i] == null ? DType.FLOAT32 : results[i].dtype();
        }
        DelayedErrorNode node = new DelayedErrorNode(message, shapes, dtypes);
        Tensor[] wrapped = new Tensor[results.length];
        for (int i = 0; i < results.length; i++) {
            Tensor r = results[i];
            if (r == null || !(r.isFloatingPoint() || r.isComplex())) {
                wrapped[i] = r;
                continue;
            }
            wrapped[i] = r.detach();
            wrapped[i].setGradFn(node, i);
        }
        return wrapped;
    }

    @Override
    public String name() {
        return "DelayedError";
    }

    @Override
    Tensor[] apply(Tensor[] gradOutputs) {
        throw new TorchException(message);
    }
}
