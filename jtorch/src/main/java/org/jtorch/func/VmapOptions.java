package org.jtorch.func;

import java.util.Arrays;
import java.util.List;

/**
 * The arguments of {@code torch.vmap} besides the function.
 *
 * @param inDims an Integer, null, or a list/array mirroring the positional arguments (nested for nested containers); an
 *     Integer maps every tensor below it over that dim, null maps nothing
 * @param outDims the same for the outputs (null: the output is returned as it is)
 * @param randomness how random ops behave
 * @param chunkSize null to run the whole batch at once, else the number of examples per chunk
 */
public record VmapOptions(Object inDims, Object outDims, Randomness randomness, Integer chunkSize) {
    /** A null randomness means {@code "error"}, PyTorch's default. */
    public VmapOptions {
        if (randomness == null) randomness = Randomness.ERROR;
    }

    /** PyTorch's defaults: {@code in_dims=0, out_dims=0, randomness='error', chunk_size=None}. */
    public static VmapOptions defaults() {
        return new VmapOptions(0, 0, Randomness.ERROR, null);
    }

    /**
     * {@code in_dims}: an Integer (every argument), null (none), or a list or nested structure matching the arguments.
     */
    public VmapOptions inDims(Object dims) {
        return new VmapOptions(dims, outDims, randomness, chunkSize);
    }

    /** One in_dim per positional argument ({@code in_dims=(0, None)}). */
    public VmapOptions inDims(Integer... dims) {
        return new VmapOptions(Arrays.asList(dims), outDims, randomness, chunkSize);
    }

    /** {@code out_dims}: where the batch dim goes in each output (an Integer, or a structure matching the outputs). */
    public VmapOptions outDims(Object dims) {
        return new VmapOptions(inDims, dims, randomness, chunkSize);
    }

    /** {@code randomness}: how random ops behave under vmap ({@code "error"}, {@code "different"}, {@code "same"}). */
    public VmapOptions randomness(Randomness r) {
        return new VmapOptions(inDims, outDims, r, chunkSize);
    }

    /** {@code randomness="error" | "different" | "same"}. */
    public VmapOptions randomness(String r) {
        return new VmapOptions(inDims, outDims, Randomness.of(r), chunkSize);
    }

    /** {@code chunk_size}: examples per chunk, so that the batch is run in pieces; null runs it at once. */
    public VmapOptions chunkSize(Integer k) {
        return new VmapOptions(inDims, outDims, randomness, k);
    }

    /** {@code (0, None, ...)} as a list for {@link #inDims(Object)} (nulls allowed). */
    public static List<Integer> dims(Integer... dims) {
        return Arrays.asList(dims);
    }
}
