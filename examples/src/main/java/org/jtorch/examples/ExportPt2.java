package org.jtorch.examples;

import java.nio.file.Path;
import org.jtorch.DType;
import org.jtorch.Torch;
import org.jtorch.examples.gpt.Gpt;
import org.jtorch.export.Dim;
import org.jtorch.export.Export;
import org.jtorch.export.ExportOptions;
import org.jtorch.export.ExportedProgram;

/**
 * Writes TrainGpt's model as a {@code .pt2} archive ({@code torch.export.save}'s format, which PyTorch's
 * {@code torch.export.load} reads and {@code ServeModel --pt2} serves): the next-token logits of a batch of
 * {@code [batch, context]} token ids, the batch dimension dynamic.
 *
 * <pre>
 * --checkpoint FILE   TrainGpt's checkpoint.pt (default: a freshly initialised model of TrainGpt's default size)
 * --context T         the sequence length the program takes (default 64)
 * --max-batch N       the largest batch the program accepts (default 1024)
 * --out FILE          where to write (default target/gpt.pt2)
 * </pre>
 *
 * Run it with {@code -Dexample.main=org.jtorch.examples.ExportPt2 -Dexample.args="--checkpoint ..."}.
 */
public final class ExportPt2 {
    private ExportPt2() {}

    public static void main(String[] args) {
        Path checkpoint = null, out = Path.of("target", "gpt.pt2");
        int context = 64, maxBatch = 1024;
        try {
            for (int i = 0; i < args.length; i += 2) {
                if (i + 1 >= args.length) throw new IllegalArgumentException(args[i] + " needs a value");
                String v = args[i + 1];
                switch (args[i]) {
                    case "--checkpoint" -> checkpoint = Path.of(v);
                    case "--context" -> context = Integer.parseInt(v);
                    case "--max-batch" -> maxBatch = Integer.parseInt(v);
                    case "--out" -> out = Path.of(v);
                    default -> throw new IllegalArgumentException("unknown flag " + args[i]);
                }
            }
            Gpt gpt = ServeModel.loadGpt(checkpoint);
            Export.save(program(gpt, context, maxBatch), out);
        } catch (java.io.UncheckedIOException | IllegalArgumentException | org.jtorch.TorchException e) {
            System.err.println("ExportPt2: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.out.printf("ExportPt2: next-token logits of [batch, %d] token ids -> %s%n", context, out);
    }

    /** The model's next-token logits over {@code [batch, context]} token ids, batch from 1 to {@code maxBatch}. */
    public static ExportedProgram program(Gpt gpt, int context, int maxBatch) {
        int block = gpt.config().blockSize();
        if (context < 1 || context > block) {
            throw new IllegalArgumentException("--context must lie in [1, " + block + "], got " + context);
        }
        if (maxBatch < 2) throw new IllegalArgumentException("--max-batch must be at least 2, got " + maxBatch);
        ExportOptions dynamicBatch = ExportOptions.defaults().dynamicDim(0, 0, Dim.of("batch", 1, maxBatch));
        return Export.export(
                new ServeModel.NextTokenLogits(gpt), dynamicBatch, Torch.zeros(new long[] {2, context}, DType.INT64));
    }
}
