package org.jtorch.examples.serve;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.MemoryScope;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.GradMode;
import org.jtorch.examples.gpt.Gpt;
import org.jtorch.export.ExportedProgram;
import org.jtorch.nn.Module;
import org.jtorch.nn.functional.F;

/**
 * What the server runs: a function from a batch of examples (stacked along a new first dimension) to a batch of
 * results, the dtype its examples have, and the check each example passes before it may join a batch (so one bad
 * request never fails the others in its batch).
 *
 * <p>Any source of a forward plugs in: an eager {@link Module}, TrainGpt's {@link Gpt} read from its checkpoint, or an
 * {@link ExportedProgram}, made in this process with {@code Export.export} or read from a {@code .pt2} file with
 * {@code Export.load(path)}: {@link #ofProgram} takes the program either way.
 *
 * <p>An eager forward runs in a {@link MemoryScope}: its intermediates' memory serves the next batch's (a server's
 * forwards are the same sizes over and over), so a forward does not pay for fresh memory; the result is kept.
 *
 * @param name what {@code /health} reports
 * @param inputDtype the dtype a request's numbers are read as
 * @param check validates one example (its shape and values), throwing a {@link BadRequest}
 * @param forward the batched forward: {@code [B, ...example]} to {@code [B, ...result]}
 */
public record ServedModel(String name, DType inputDtype, Check check, Function<Tensor, Tensor> forward) {
    /** Validates one example before it is queued. */
    @FunctionalInterface
    public interface Check {
        void accept(Tensor example);
    }

    /**
     * TrainGpt's model as a next-token service: an example is a sequence of token ids (1 to block-size long), the
     * result the logits of the token after it ({@code [vocab]}). Requests are batched with others of their length.
     */
    public static ServedModel gptNextToken(String name, Gpt gpt) {
        gpt.eval();
        long vocab = gpt.config().vocabSize(), block = gpt.config().blockSize();
        return new ServedModel(name, DType.INT64, tokenCheck(vocab, block), batch -> {
            try (GradMode.Scope _ = Torch.noGrad();
                    MemoryScope scope = MemoryScope.open()) {
                // the LM head on the last position only: the others' logits are not asked for
                return scope.keep(F.linear(gpt.call(batch).select(1, batch.size(1) - 1), gpt.lmHeadWeight()));
            }
        });
    }

    /** Token sequences for a vocabulary and context length. */
    public static Check tokenCheck(long vocab, long block) {
        return example -> {
            if (example.dim() != 1 || example.size(0) < 1 || example.size(0) > block) {
                throw new BadRequest(
                        422,
                        "input must be a list of 1 to " + block + " token ids, got shape "
                                + Arrays.toString(example.shape()));
            }
            long min = example.min().toLongArray()[0], max = example.max().toLongArray()[0];
            if (min < 0 || max >= vocab) {
                throw new BadRequest(422, "token ids must lie in [0, " + vocab + "), got " + (min < 0 ? min : max));
            }
        };
    }

    /** An eager module under no-grad: its {@code call} is the batched forward. */
    public static ServedModel ofModule(String name, Module module, DType inputDtype, Check check) {
        module.eval();
        return new ServedModel(name, inputDtype, check, batch -> {
            try (GradMode.Scope _ = Torch.noGrad();
                    MemoryScope scope = MemoryScope.open()) {
                return scope.keep(module.call(batch));
            }
        });
    }

    /**
     * An exported program whose batch dimension takes sizes from {@code minBatch} to {@code maxBatch} (equal for a
     * program specialized to the batch size it was exported with): a smaller batch is padded with copies of its first
     * example (whose results are dropped), a larger one runs in pieces. The result of each example is the program's,
     * whatever batch it joined.
     */
    public static ServedModel ofProgram(
            String name, ExportedProgram program, long minBatch, long maxBatch, DType inputDtype, Check check) {
        if (minBatch < 0 || maxBatch < Math.max(1, minBatch)) {
            throw new IllegalArgumentException(
                    "batch sizes from " + minBatch + " to " + maxBatch + " serve no request");
        }
        Module module = program.module();
        return new ServedModel(name, inputDtype, check, batch -> {
            try (GradMode.Scope _ = Torch.noGrad();
                    MemoryScope scope = MemoryScope.open()) {
                long b = batch.size(0);
                List<Tensor> parts = new ArrayList<>();
                for (long start = 0; start < b; start += maxBatch) {
                    long n = Math.min(maxBatch, b - start);
                    Tensor piece = batch.narrow(0, start, n);
                    if (n < minBatch) {
                        long[] shape = piece.shape();
                        shape[0] = minBatch - n;
                        piece = Torch.cat(List.of(piece, piece.narrow(0, 0, 1).expand(shape)));
                    }
                    parts.add(module.call(piece).narrow(0, 0, n));
                }
                return scope.keep(parts.size() == 1 ? parts.getFirst() : Torch.cat(parts));
            }
        });
    }
}
