package org.jtorch.autograd;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.ops.BackwardOps;
import org.jtorch.ops.Creation;

/**
 * PyTorch's rebase of history after an in-place op on a view ({@code CopySlices}): the view's base gets this node as
 * its {@code grad_fn}, and the view gets an {@code as_strided} view of it. Backward takes the gradient of the whole
 * base, runs the in-place op's node on the part the view covers, and puts the gradient for the view's old value back
 * into that part; the op's other inputs get their gradients as usual. Everything is written with differentiable ops
 * ({@code _as_strided_transfer} is linear and has its own rule), so higher-order gradients pass through.
 */
final class CopySlices extends Node {
    private final long[] baseSize, baseStride, viewSize, viewStride;
    private final long baseOffset, viewOffset;
    private Node fn;
    private final int fnOutput;
    /** The slot of {@link #fn} that is the view's old value, or -1 (an out= write that does not read it). */
    private final int selfSlot;

    CopySlices(
            Edge[] next,
            long[][] inShapes,
            DType[] inDtypes,
            Tensor base,
            Tensor view,
            Node fn,
            int fnOutput,
            int selfSlot) {
        super(next, inShapes, inDtypes, new long[][] {base.shape()}, new DType[] {base.dtype()});
        this.baseSize = base.shape();
        this.baseStride = base.stride();
        this.baseOffset = base.storageOffset();
        this.viewSize = view.shape();
        this.viewStride = view.stride();
        this.viewOffset = view.storageOffset();
        this.fn = fn;
        this.fnOutput = fnOutput;
        this.selfSlot = selfSlot;
    }

    @Override
    public String name() {
        return "CopySlices";
    }

    @Override
    Tensor[] apply(Tensor[] gradOutputs) {
        if (fn == null) throw freedError();
        Tensor g = gradOutputs[0];
        Tensor slice =
                BackwardOps.asStridedTransfer(g, baseSize, baseStride, baseOffset, viewSize, viewStride, viewOffset);
        Tensor[] fnGrads = new Tensor[fn.outputShapes.length];
        for (int j = 0; j < fnGrads.length; j++) {
            fnGrads[j] = j == fnOutput ? slice : Creation.full(fn.outputShapes[j], 0L, fn.outputDtypes[j], Device.CPU);
        }
        Tensor[] res = fn.apply(fnGrads);
        // the written region gets the gradient of the view's old value; the rest of the base passes through
        Tensor result = g.sub(place(slice));
        if (selfSlot >= 0 && selfSlot < res.length && res[selfSlot] != null) {
            result = result.add(place(Engine.validate(res[selfSlot], fn, selfSlot)));
        }
        Tensor[] out = new Tensor[next.length];
        out[0] = result;
        for (int i = 0, s = 1; i < fn.next.length; i++) {
            if (i == selfSlot) continue;
            out[s++] = i < res.length ? res[i] : null;
        }
        return out;
    }

    /** A view-shaped gradient placed in zeros of the base's geometry. */
    private Tensor place(Tensor viewGrad) {
        return BackwardOps.asStridedTransfer(
                viewGrad, viewSize, viewStride, viewOffset, baseSize, baseStride, baseOffset);
    }

    @Override
    void release() {
        if (fn != null) fn.release();
        fn = null;
    }

    /**
     * A view's {@code grad_fn} as an {@code as_strided} view of its base's history: the view-shaped gradient placed
     * into zeros of the base's geometry, sent along the base's edge.
     */
    static final class ViewOfBase extends Node {
        private final long[] baseSize, baseStride, viewSize, viewStride;
        private final long baseOffset, viewOffset;

        ViewOfBase(Edge baseEdge, Tensor base, Tensor view) {
            super(
                    new Edge[] {baseEdge},
                    new long[][] {base.shape()},
                    new DType[] {base.dtype()},
                    new long[][] {view.shape()},
                    new DType[] {view.dtype()});
            this.baseSize = base.shape();
            this.baseStride = base.stride();
            this.baseOffset = base.storageOffset();
            this.viewSize = view.shape();
            this.viewStride = view.stride();
            this.viewOffset = view.storageOffset();
        }

        @Override
        public String name() {
            return "AsStridedBackward0";
        }

        @Override
        Tensor[] apply(Tensor[] gradOutputs) {
            return new Tensor[] {
                BackwardOps.asStridedTransfer(
                        gradOutputs[0], viewSize, viewStride, viewOffset, baseSize, baseStride, baseOffset)
            };
        }
    }
}
