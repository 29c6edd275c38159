package org.jtorch.nn.utils.rnn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;

/**
 * The functions of {@code torch.nn.utils.rnn}. Packing and padding are written with differentiable tensor ops
 * ({@code narrow}, {@code cat}, {@code stack}, {@code index_select}), so gradients flow from a packed or padded result
 * back to the tensors it was made from.
 */
public final class Rnn {
    private Rnn() {}

    /** {@code pad_packed_sequence}'s result: the padded batch and each sequence's length (int64). */
    public record Padded(Tensor output, Tensor lengths) {}

    /** {@code pack_padded_sequence(input, lengths)}: time-major input, lengths sorted in decreasing order. */
    public static PackedSequence packPaddedSequence(Tensor input, long[] lengths) {
        return packPaddedSequence(input, Torch.tensor(lengths), false, true);
    }

    /**
     * {@code pack_padded_sequence(input, lengths, batch_first, enforce_sorted)}: {@code input} is (T, B, *) or, with
     * {@code batchFirst}, (B, T, *); {@code lengths} (B values, int64) gives each sequence's length. With
     * {@code enforceSorted} the lengths must already decrease; without it the batch is sorted first and the packing
     * remembers the permutation.
     */
    public static PackedSequence packPaddedSequence(
            Tensor input, Tensor lengths, boolean batchFirst, boolean enforceSorted) {
        lengths = lengths.to(DType.INT64);
        Tensor sortedIndices = null;
        if (!enforceSorted) {
            var sorted = Torch.sort(lengths, 0, true);
            lengths = sorted.values();
            sortedIndices = sorted.indices();
            input = input.indexSelect(batchFirst ? 0 : 1, sortedIndices);
        }
        if (batchFirst) input = input.transpose(0, 1);
        if (input.numel() == 0) throw new TorchException("Cannot pack empty tensors.");
        long[] len = lengths.toLongArray();
        long batch = input.size(1);
        if (lengths.dim() != 1 || len.length != batch) {
            throw new TorchException("Expected `len(lengths)` to be equal to batch_size, but got " + len.length
                    + " (batch_size=" + batch + ")");
        }
        if (len[len.length - 1] <= 0) {
            throw new TorchException("Length of all samples has to be greater than 0, but found an element in "
                    + "'lengths' that is <= 0");
        }
        for (int i = 1; i < len.length; i++) {
            if (len[i] > len[i - 1]) {
                throw new TorchException("`lengths` array must be sorted in decreasing order when `enforce_sorted` is"
                        + " True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to"
                        + " sidestep this requirement if you do not need ONNX exportability.");
            }
        }
        if (len[0] > input.size(0)) {
            throw new TorchException("Expected sequence length to be larger than or equal to the length of the "
                    + "longest sequence, but got " + input.size(0) + " < " + len[0]);
        }
        long[] batchSizes = new long[(int) len[0]];
        List<Tensor> steps = new ArrayList<>();
        for (int t = 0; t < batchSizes.length; t++) {
            long running = 0;
            while (running < len.length && len[(int) running] > t) running++;
            batchSizes[t] = running;
            steps.add(input.select(0, t).narrow(0, 0, running));
        }
        return new PackedSequence(Torch.cat(steps), Torch.tensor(batchSizes), sortedIndices, null);
    }

    /** {@code pad_packed_sequence(sequence)}: time-major, padded with zeros to the longest sequence. */
    public static Padded padPackedSequence(PackedSequence sequence) {
        return padPackedSequence(sequence, false, 0.0, null);
    }

    /**
     * {@code pad_packed_sequence(sequence, batch_first, padding_value, total_length)}: the inverse of packing, with the
     * batch back in its original order; {@code totalLength} (null = the longest sequence) pads further.
     */
    public static Padded padPackedSequence(
            PackedSequence sequence, boolean batchFirst, double paddingValue, Long totalLength) {
        long[] batchSizes = sequence.batchSizesArray();
        Tensor data = sequence.data();
        int steps = batchSizes.length;
        if (totalLength != null && totalLength < steps) {
            throw new IllegalArgumentException(
                    "Expected total_length to be at least the length of the longest sequence in "
                            + "input, but got total_length=" + totalLength + " and max sequence length being " + steps);
        }
        long batch = batchSizes[0];
        long[] rowShape = data.shape().clone();
        long[] lengths = new long[(int) batch];
        List<Tensor> padded = new ArrayList<>();
        long offset = 0;
        for (int t = 0; t < steps; t++) {
            long n = batchSizes[t];
            for (int i = 0; i < n; i++) lengths[i]++;
            Tensor rows = data.narrow(0, offset, n);
            offset += n;
            padded.add(n == batch ? rows : Torch.cat(List.of(rows, fill(rowShape, batch - n, paddingValue, data))));
        }
        long total = totalLength == null ? steps : totalLength;
        for (long t = steps; t < total; t++) padded.add(fill(rowShape, batch, paddingValue, data));
        Tensor output = Torch.stack(padded, batchFirst ? 1 : 0);
        Tensor lengthTensor = Torch.tensor(lengths);
        if (sequence.unsortedIndices() != null) {
            output = output.indexSelect(batchFirst ? 0 : 1, sequence.unsortedIndices());
            lengthTensor = lengthTensor.indexSelect(0, sequence.unsortedIndices());
        }
        return new Padded(output, lengthTensor);
    }

    /** {@code pad_sequence(sequences)}: time-major, padded with zeros. */
    public static Tensor padSequence(List<Tensor> sequences) {
        return padSequence(sequences, false, 0.0, "right");
    }

    /**
     * {@code pad_sequence(sequences, batch_first, padding_value, padding_side)}: sequences (L_i, *) stacked into
     * (L_max, B, *) or, with {@code batchFirst}, (B, L_max, *); {@code paddingSide} is "right" or "left".
     */
    public static Tensor padSequence(
            List<Tensor> sequences, boolean batchFirst, double paddingValue, String paddingSide) {
        if (!paddingSide.equals("right") && !paddingSide.equals("left")) {
            throw new TorchException("Expected padding_side to be one of left or right, but got " + paddingSide + ".");
        }
        if (sequences.isEmpty()) throw new TorchException("received an empty list of sequences");
        long longest = 0;
        for (Tensor s : sequences) longest = Math.max(longest, s.size(0));
        List<Tensor> padded = new ArrayList<>();
        for (Tensor s : sequences) {
            long missing = longest - s.size(0);
            if (missing == 0) {
                padded.add(s);
                continue;
            }
            Tensor pad = fill(s.shape(), missing, paddingValue, s);
            padded.add(Torch.cat(paddingSide.equals("right") ? List.of(s, pad) : List.of(pad, s)));
        }
        return Torch.stack(padded, batchFirst ? 0 : 1);
    }

    /** {@code pack_sequence(sequences, enforce_sorted)}: {@link #padSequence} then {@link #packPaddedSequence}. */
    public static PackedSequence packSequence(List<Tensor> sequences, boolean enforceSorted) {
        long[] lengths = new long[sequences.size()];
        for (int i = 0; i < lengths.length; i++) lengths[i] = sequences.get(i).size(0);
        return packPaddedSequence(padSequence(sequences), Torch.tensor(lengths), false, enforceSorted);
    }

    /** {@code unpad_sequence(padded_sequences, lengths, batch_first)}: the sequences, each cut to its length. */
    public static List<Tensor> unpadSequence(Tensor paddedSequences, Tensor lengths, boolean batchFirst) {
        Tensor batchMajor = batchFirst ? paddedSequences : paddedSequences.transpose(0, 1);
        long[] len = lengths.toLongArray();
        List<Tensor> out = new ArrayList<>();
        for (int i = 0; i < len.length; i++) out.add(batchMajor.select(0, i).narrow(0, 0, len[i]));
        return out;
    }

    /** {@code unpack_sequence(packed_sequences)}: the sequences of a packing, in the original batch order. */
    public static List<Tensor> unpackSequence(PackedSequence packedSequences) {
        Padded padded = padPackedSequence(packedSequences, true, 0.0, null);
        return unpadSequence(padded.output(), padded.lengths(), true);
    }

    /** {@code rows} rows shaped like {@code like}'s rows ({@code shape} without its first dim), all {@code value}. */
    private static Tensor fill(long[] shape, long rows, double value, Tensor like) {
        long[] s = Arrays.copyOf(shape, shape.length);
        s[0] = rows;
        return Torch.full(s, value, like.dtype(), Device.CPU);
    }
}
