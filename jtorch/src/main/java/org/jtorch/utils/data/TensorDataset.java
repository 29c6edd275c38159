package org.jtorch.utils.data;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.Tensor;

/**
 * {@code torch.utils.data.TensorDataset}: item {@code i} is the list of {@code t[i]} for every tensor given, which must
 * all have the same first dimension. Items are views of the tensors (basic indexing), as in PyTorch.
 */
public final class TensorDataset implements Dataset<List<Tensor>> {
    private final List<Tensor> tensors;

    /** {@code TensorDataset(*tensors)}: at least one tensor, all of the same size in dimension 0. */
    public TensorDataset(Tensor... tensors) {
        if (tensors.length == 0) throw new IllegalArgumentException("TensorDataset: at least one tensor is required");
        for (Tensor t : tensors) {
            if (t.dim() == 0) throw new IllegalArgumentException("TensorDataset: a tensor has no first dimension");
            if (t.size(0) != tensors[0].size(0)) throw new IllegalArgumentException("Size mismatch between tensors");
        }
        this.tensors = List.of(tensors);
    }

    /** {@code dataset.tensors}. */
    public List<Tensor> tensors() {
        return tensors;
    }

    @Override
    public List<Tensor> get(int index) {
        List<Tensor> item = new ArrayList<>(tensors.size());
        for (Tensor t : tensors) item.add(t.select(0, index));
        return List.copyOf(item);
    }

    @Override
    public int size() {
        return Math.toIntExact(tensors.get(0).size(0));
    }
}
