package org.jtorch.examples;

import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.Conv2d;
import org.jtorch.nn.ConvOptions;
import org.jtorch.nn.ConvTranspose2d;
import org.jtorch.nn.Module;
import org.jtorch.nn.functional.F;
import org.jtorch.optim.Adam;

/**
 * A small U-Net that removes Gaussian noise from images of soft blobs. The encoder halves the resolution twice with
 * strided convolutions; the decoder comes back up once by bilinear {@code F.interpolate} and once by a
 * {@code ConvTranspose2d}, each time joined with the encoder's features of that resolution (the skip connections). Run
 * with {@code -Dexample.main=org.jtorch.examples.DenoisingUNet [-Dexample.args="EPOCHS SIZE"]}.
 */
public final class DenoisingUNet {
    private DenoisingUNet() {}

    /** The network: 1 → 8 → 16 → 16 channels down, interpolate + ConvTranspose2d up. */
    static final class UNet extends Module {
        private final Conv2d enc1, enc2, bottom, merge1, out;
        private final ConvTranspose2d up2;

        UNet() {
            ConvOptions same = ConvOptions.defaults().padding(1);
            ConvOptions halve = ConvOptions.defaults().stride(2).padding(1);
            enc1 = register("enc1", new Conv2d(1, 8, new long[] {3}, same));
            enc2 = register("enc2", new Conv2d(8, 16, new long[] {3}, halve));
            bottom = register("bottom", new Conv2d(16, 16, new long[] {3}, halve));
            merge1 = register("merge1", new Conv2d(32, 16, new long[] {3}, same));
            // kernel 4, stride 2, padding 1 exactly doubles the size
            up2 = register(
                    "up2",
                    new ConvTranspose2d(
                            16,
                            8,
                            new long[] {4},
                            ConvOptions.defaults().stride(2).padding(1)));
            out = register("out", new Conv2d(16, 1, new long[] {3}, same));
        }

        @Override
        public Tensor forward(Tensor x) {
            Tensor e1 = F.relu(enc1.call(x)); // full resolution
            Tensor e2 = F.relu(enc2.call(e1)); // half
            Tensor b = F.relu(bottom.call(e2)); // quarter
            Tensor u1 = F.interpolate(b, new double[] {2}, "bilinear", false, null); // back to half
            Tensor m1 = F.relu(merge1.call(Torch.cat(List.of(u1, e2), 1)));
            Tensor u2 = F.relu(up2.call(m1)); // back to full
            return out.call(Torch.cat(List.of(u2, e1), 1));
        }
    }

    /** Held-out mean squared errors against the clean images: the noisy input's, and the model's per epoch. */
    public record Result(double noisyLoss, double firstLoss, double lastLoss) {}

    public static void main(String[] args) {
        int epochs = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int size = args.length > 1 ? Integer.parseInt(args[1]) : 32;
        Result r = run(epochs, 512, size);
        System.out.printf(
                "held-out mse: noisy input %.4f, after epoch 1 %.4f, after epoch %d %.4f%n",
                r.noisyLoss(), r.firstLoss(), epochs, r.lastLoss());
    }

    /** Images [n, 1, size, size] of two Gaussian blobs each, at random centres and widths, with values in [0, 1]. */
    static Tensor blobs(int n, int size) {
        Tensor grid = Torch.linspace(0, 1, size);
        Tensor ys = grid.view(1, size, 1), xs = grid.view(1, 1, size);
        Tensor img = Torch.zeros(n, size, size);
        for (int k = 0; k < 2; k++) {
            Tensor cy = Torch.rand(n, 1, 1), cx = Torch.rand(n, 1, 1);
            Tensor width = Torch.rand(n, 1, 1).mul(0.1).add(0.05);
            Tensor d2 = ys.sub(cy).square().add(xs.sub(cx).square());
            img = img.add(d2.div(width.square().mul(-2)).exp());
        }
        return img.clamp(0.0, 1.0).unsqueeze(1);
    }

    /** Trains for {@code epochs} on {@code n} images of {@code size}² (batches of 32) and measures on 64 others. */
    public static Result run(int epochs, int n, int size) {
        Torch.manualSeed(0);
        Tensor clean = blobs(n + 64, size);
        Tensor noisy = clean.add(Torch.randn(clean.shape()).mul(0.2));
        Tensor trainClean = clean.slice(0, 0, n), trainNoisy = noisy.slice(0, 0, n);
        Tensor heldClean = clean.slice(0, n, n + 64), heldNoisy = noisy.slice(0, n, n + 64);
        UNet model = new UNet();
        Adam optimizer = new Adam(model.parameters(), 3e-3);
        double first = Double.NaN, last = Double.NaN;
        for (int epoch = 0; epoch < epochs; epoch++) {
            for (int start = 0; start < n; start += 32) {
                int end = Math.min(n, start + 32);
                Tensor loss = F.mseLoss(model.call(trainNoisy.slice(0, start, end)), trainClean.slice(0, start, end));
                optimizer.zeroGrad();
                loss.backward();
                optimizer.step();
            }
            try (var _ = Torch.noGrad()) {
                last = F.mseLoss(model.call(heldNoisy), heldClean).item();
            }
            if (epoch == 0) first = last;
        }
        return new Result(F.mseLoss(heldNoisy, heldClean).item(), first, last);
    }
}
