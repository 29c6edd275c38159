package org.jtorch.export;

import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.AvgPool2d;
import org.jtorch.nn.BatchNorm2d;
import org.jtorch.nn.Conv2d;
import org.jtorch.nn.ConvOptions;
import org.jtorch.nn.Flatten;
import org.jtorch.nn.GELU;
import org.jtorch.nn.Linear;
import org.jtorch.nn.MaxPool2d;
import org.jtorch.nn.Module;
import org.jtorch.nn.ReLU;
import org.jtorch.nn.Sequential;
import org.jtorch.nn.TransformerEncoderLayer;

/**
 * JTorch's versions of the fixture models ({@code make_pt2_fixtures.py}): an MLP, a CNN with batch norms and pooling,
 * and a two-layer transformer encoder, in inference mode, with an input of any batch size for each.
 */
final class Pt2Models {
    private Pt2Models() {}

    static final String[] NAMES = {"mlp", "cnn", "encoder"};

    static Module model(String name) {
        Torch.manualSeed(7);
        Module m =
                switch (name) {
                    case "mlp" ->
                        new Sequential(
                                new Linear(16, 32), new ReLU(), new Linear(32, 32), new GELU(), new Linear(32, 10));
                    case "cnn" -> {
                        Module cnn = new Sequential(
                                new Conv2d(
                                        3,
                                        8,
                                        new long[] {3, 3},
                                        ConvOptions.defaults().padding(1)),
                                new BatchNorm2d(8),
                                new ReLU(),
                                new MaxPool2d(2),
                                new Conv2d(
                                        8,
                                        16,
                                        new long[] {3, 3},
                                        ConvOptions.defaults().padding(1)),
                                new BatchNorm2d(16),
                                new ReLU(),
                                new AvgPool2d(2),
                                new Flatten(),
                                new Linear(16 * 4 * 4, 10));
                        try (var _ = Torch.noGrad()) {
                            for (int i = 0; i < 3; i++)
                                cnn.call(Torch.randn(8, 3, 16, 16).mul(2.0).add(0.5)); // running stats
                        }
                        yield cnn;
                    }
                    case "encoder" ->
                        new Sequential(
                                new TransformerEncoderLayer(32, 4, 64, 0.0, "relu", 1e-5, true, false, true),
                                new TransformerEncoderLayer(32, 4, 64, 0.0, "relu", 1e-5, true, false, true));
                    default -> throw new IllegalArgumentException(name);
                };
        m.eval();
        return m;
    }

    static Tensor input(String name, long batch) {
        return switch (name) {
            case "mlp" -> Torch.randn(batch, 16);
            case "cnn" -> Torch.randn(batch, 3, 16, 16);
            case "encoder" -> Torch.randn(batch, 6, 32);
            default -> throw new IllegalArgumentException(name);
        };
    }
}
