package org.jtorch.nn.utils.rnn;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;

/**
 * {@code torch.nn.utils.rnn.PackedSequence}: the rows of a batch of sequences sorted by decreasing length, time step by
 * time step. {@code data} holds step 0's rows, then step 1's, and so on; {@code batchSizes} (int64, on the CPU) holds
 * how many sequences are still running at each step. {@code sortedIndices} maps the sorted order back to the batch as
 * given (null when the batch was already sorted) and {@code unsortedIndices} is its inverse.
 *
 * @param data the packed rows, (sum of batchSizes, *)
 * @param batchSizes the number of rows of each time step
 * @param sortedIndices {@code sorted_indices}, or null
 * @param unsortedIndices {@code unsorted_indices}, or null
 */
public record PackedSequence(Tensor data, Tensor batchSizes, Tensor sortedIndices, Tensor unsortedIndices) {
    /** Checks the batch sizes as PyTorch's constructor does and derives {@code unsortedIndices} when absent. */
    public PackedSequence {
        if (batchSizes.dtype() != DType.INT64 || batchSizes.dim() != 1) {
            throw new TorchException("batch_sizes should always be a 1D int64 CPU tensor, but got " + batchSizes.dim()
                    + "D " + batchSizes.dtype().pyName() + " tensor");
        }
        if (unsortedIndices == null && sortedIndices != null) unsortedIndices = Torch.argsort(sortedIndices);
    }

    /** {@code PackedSequence(data, batch_sizes)}: a batch that was sorted already. */
    public PackedSequence(Tensor data, Tensor batchSizes) {
        this(data, batchSizes, null, null);
    }

    /** {@code batch_sizes} as Java longs. */
    public long[] batchSizesArray() {
        return batchSizes.toLongArray();
    }

    /** {@code PackedSequence.to(dtype)}: the same packing with {@code data} converted; the indices stay int64. */
    public PackedSequence to(DType dtype) {
        return data.dtype() == dtype
                ? this
                : new PackedSequence(data.to(dtype), batchSizes, sortedIndices, unsortedIndices);
    }
}
