package org.jtorch.autograd;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;

/**
 * In-place ops on views under autograd (PyTorch's {@code rebase_history}): the dispatcher checks a write into a view
 * before running the op, and after recording it moves the history onto the view's base ({@link CopySlices}), so that
 * both the base and the view see the write in their gradients.
 */
final class ViewRebase {
    private ViewRebase() {}

    /**
     * Before a recorded write into {@code view}: refuses a view of a leaf that requires grad (its history cannot be
     * rebased, PyTorch's error), and makes the view's history the base's current one, so that a view made before an
     * earlier write into its base (whose {@code grad_fn} PyTorch regenerates) gives the gradient of the value it holds
     * now.
     */
    static void check(Tensor view) {
        Tensor base = view.viewBase();
        if (base.isLeaf() && base.requiresGrad()) {
            throw new TorchException(
                    "a view of a leaf Variable that requires grad is being used in an in-place operation.");
        }
        if (base.requiresGrad()) view.setGradFn(new CopySlices.ViewOfBase(Recorder.edgeOf(base), base, view), 0);
    }

    /**
     * Rebases after {@code view} was written in place by the op whose node is now {@code view.gradFn()}:
     * {@code selfSlot} is the node's input slot holding the view's old value (-1 if none).
     */
    static void rebase(Tensor view, int selfSlot) {
        Tensor base = view.viewBase();
        Node fn = Node.gradFnOf(view);
        int n = fn.next.length;
        int slots = 1 + n - (selfSlot >= 0 ? 1 : 0);
        Edge[] next = new Edge[slots];
        long[][] shapes = new long[slots][];
        DType[] dtypes = new DType[slots];
        next[0] = base.requiresGrad() ? Recorder.edgeOf(base) : null;
        shapes[0] = base.shape();
        dtypes[0] = base.dtype();
        for (int i = 0, s = 1; i < n; i++) {
            if (i == selfSlot) continue;
            next[s] = fn.next[i];
            shapes[s] = fn.inputShapes[i];
            dtypes[s] = fn.inputDtypes[i];
            s++;
        }
        CopySlices copySlices = new CopySlices(next, shapes, dtypes, base, view, fn, view.outputNr(), selfSlot);
        base.setGradFn(copySlices, 0);
        view.setGradFn(new CopySlices.ViewOfBase(new Edge(copySlices, 0), base, view), 0);
    }

    /**
     * PyTorch regenerates the {@code grad_fn} of a view whose base was written in place after the view's history was
     * made: the view then holds the base's new values, so its history must be a view of the base's new history. A
     * view's history is stale when its base's {@code grad_fn} is newer than its own, or when it has none and its base
     * gained history through a write into a view ({@link CopySlices}). Called where history is read ({@link Recorder});
     * a tensor that is not a view costs one field read.
     */
    static void refresh(Tensor t) {
        Tensor base = t.viewBase();
        if (base == null) return;
        Node baseFn = Node.gradFnOf(base);
        if (baseFn == null) return;
        Node own = Node.gradFnOf(t);
        boolean stale = own == null ? baseFn instanceof CopySlices : baseFn.sequenceNr > own.sequenceNr;
        if (stale) t.setGradFn(new CopySlices.ViewOfBase(new Edge(baseFn, base.outputNr()), base, t), 0);
    }
}
