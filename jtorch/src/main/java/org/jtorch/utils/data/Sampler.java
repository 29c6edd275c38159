package org.jtorch.utils.data;

/**
 * {@code torch.utils.data.Sampler}: an iterable over dataset indices (or, for a batch sampler, lists of indices) with a
 * known length. Each {@link #iterator()} is one epoch; a random sampler draws its order when that epoch's first index
 * is asked for, as PyTorch's generator-based {@code __iter__} does.
 *
 * @param <T> {@code Integer} for index samplers, {@code List<Integer>} for batch samplers
 */
public interface Sampler<T> extends Iterable<T> {
    /** {@code __len__()}: the number of elements one epoch yields. */
    int size();
}
