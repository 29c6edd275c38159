package org.jtorch.ops;

import org.jtorch.Index;
import org.jtorch.Tensor;
import org.jtorch.dispatch.IndexingHooks;

/** {@code Tensor}'s indexing methods, as the op layer implements them (installed as a service). */
public final class TensorIndexing implements IndexingHooks<Tensor, Index> {
    /** The service constructor. */
    public TensorIndexing() {}

    @Override
    public Tensor index(Tensor self, Index[] spec) {
        return IndexingOps.index(self, spec);
    }

    @Override
    public Tensor indexPutSpec(Tensor self, Index[] spec, Object value, boolean accumulate) {
        return IndexingOps.indexPut_(self, spec, value, accumulate);
    }

    @Override
    public Tensor indexPutTensors(Tensor self, Tensor[] indices, Tensor values, boolean accumulate) {
        return IndexingOps.indexPut_(self, indices, values, accumulate);
    }

    @Override
    public Tensor maskedScatter(Tensor self, Tensor mask, Tensor source) {
        return IndexingOps.maskedScatter_(self, mask, source);
    }
}
