package org.jtorch.export;

import org.jtorch.DType;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.Embedding;
import org.jtorch.nn.Linear;
import org.jtorch.nn.Module;
import org.jtorch.nn.TransformerDecoderLayer;

/**
 * JTorch's versions of the fixtures' programs of several inputs ({@code make_pt2_fixtures.py}): a transformer decoder
 * layer over a target and a memory, and a two-tower model of token ids and features with two outputs; each with its
 * forward as {@link Export.Forward}, its inputs at any batch size, and its export with one dynamic batch {@link Dim}
 * shared by its inputs.
 */
public final class MultiInputModels {
    private MultiInputModels() {}

    /** The models' names, as the fixtures name them. */
    public static final String[] NAMES = {"decoder", "two_tower"};

    /** A model and its forward of several inputs. */
    public record Model(Module module, Export.Forward forward) {
        /** The forward on these inputs, without autograd. */
        public Tensor[] eager(Tensor... inputs) {
            try (var _ = Torch.noGrad()) {
                return forward.apply(inputs);
            }
        }

        /** The export with a dynamic batch dimension shared by every input, from 1 to 1024. */
        public ExportedProgram exportWithDynamicBatch(Tensor... examples) {
            Dim batch = Dim.of("batch", 1, 1024);
            ExportOptions options = ExportOptions.defaults();
            for (int i = 0; i < examples.length; i++) options = options.dynamicDim(i, 0, batch);
            return Export.export(module, forward, options, examples);
        }
    }

    /** The named model, in inference mode, with fixed weights. */
    public static Model model(String name) {
        Torch.manualSeed(11);
        return switch (name) {
            case "decoder" -> {
                TransformerDecoderLayer layer =
                        new TransformerDecoderLayer(32, 4, 64, 0.0, "relu", 1e-5, true, false, true);
                layer.eval();
                yield new Model(layer, in -> new Tensor[] {layer.forward(in[0], in[1])});
            }
            case "two_tower" -> {
                TwoTower m = new TwoTower();
                m.eval();
                yield new Model(m, in -> m.forward(in[0], in[1]));
            }
            default -> throw new IllegalArgumentException(name);
        };
    }

    /** Inputs of the named model at a batch size, drawn from {@code seed}. */
    public static Tensor[] inputs(String name, long batch, long seed) {
        Generator g = new Generator().manualSeed(seed);
        return switch (name) {
            case "decoder" ->
                new Tensor[] {Torch.randn(new long[] {batch, 5, 32}, g), Torch.randn(new long[] {batch, 7, 32}, g)};
            case "two_tower" ->
                new Tensor[] {
                    Torch.randint(0, 50, new long[] {batch, 6}, g).to(DType.INT64),
                    Torch.randn(new long[] {batch, 8}, g)
                };
            default -> throw new IllegalArgumentException(name);
        };
    }

    /** Token ids and features to class logits and a per-example score: two inputs, two outputs. */
    static final class TwoTower extends Module {
        private final Embedding emb = register("emb", new Embedding(50, 16));
        private final Linear lin = register("lin", new Linear(8, 16));
        private final Linear head = register("head", new Linear(16, 4));

        Tensor[] forward(Tensor tokens, Tensor features) {
            Tensor h = emb.call(tokens).mean(1).add(lin.call(features)).relu();
            return new Tensor[] {head.call(h), h.sum(-1)};
        }
    }
}
