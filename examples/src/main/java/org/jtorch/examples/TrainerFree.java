package org.jtorch.examples;

import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.BatchNorm1d;
import org.jtorch.nn.Linear;
import org.jtorch.nn.ReLU;
import org.jtorch.nn.Sequential;
import org.jtorch.nn.functional.F;
import org.jtorch.nn.utils.Parametrizations;
import org.jtorch.optim.SGD;
import org.jtorch.optim.lr.CosineAnnealingLR;
import org.jtorch.optim.swa.AveragedModel;
import org.jtorch.optim.swa.SWALR;
import org.jtorch.optim.swa.SwaUtils;
import org.jtorch.utils.data.DataLoader;
import org.jtorch.utils.data.TensorDataset;

/**
 * A training loop without a trainer class: a {@code DataLoader}, gradient accumulation over micro-batches, a
 * weight-norm parametrization, a cosine schedule and then Stochastic Weight Averaging (SWALR, AveragedModel,
 * update_bn), on {@code y = sin(3 x0) + x1²}. Run with {@code -Dexample.main=org.jtorch.examples.TrainerFree
 * [-Dexample.args=EPOCHS]}.
 */
public final class TrainerFree {
    private TrainerFree() {}

    /** The held-out mean squared errors: first epoch, last epoch of the model, and of the averaged model. */
    public record Result(double firstLoss, double lastLoss, double swaLoss, long averaged) {}

    public static void main(String[] args) {
        Result r = run(args.length > 0 ? Integer.parseInt(args[0]) : 40, 1024);
        System.out.printf(
                "held-out mse: first epoch %.4f, last epoch %.4f, SWA average of %d epochs %.4f%n",
                r.firstLoss(), r.lastLoss(), r.averaged(), r.swaLoss());
    }

    /** The MLP, its output layer's weight as {@code g * v / ‖v‖} (weight norm). */
    static Sequential model() {
        Sequential m = new Sequential(new Linear(2, 64), new BatchNorm1d(64), new ReLU(), new Linear(64, 1));
        Parametrizations.weightNorm(m.get(3));
        return m;
    }

    /** Trains for {@code epochs} on {@code n} points (SWA over the last quarter) and measures on 256 others. */
    public static Result run(int epochs, int n) {
        Torch.manualSeed(0);
        Tensor x = Torch.randn(n + 256, 2);
        Tensor y = x.select(1, 0).mul(3).sin().add(x.select(1, 1).square()).unsqueeze(1);
        TensorDataset train = new TensorDataset(x.slice(0, 0, n), y.slice(0, 0, n));
        Tensor heldX = x.slice(0, n, n + 256), heldY = y.slice(0, n, n + 256);
        Sequential model = model();
        SGD optimizer =
                new SGD(model.parameters(), SGD.Options.defaults().lr(0.05).momentum(0.9));
        int swaStart = epochs - Math.max(1, epochs / 4), accumulation = 4; // 4 micro-batches of 16 make one step
        CosineAnnealingLR cosine = new CosineAnnealingLR(optimizer, swaStart);
        SWALR swaScheduler = new SWALR(optimizer, 0.01, 2, "cos");
        AveragedModel swa = new AveragedModel(model, model()); // the replica takes the model's state
        double first = Double.NaN, last = Double.NaN;
        try (DataLoader<List<Tensor>> loader =
                DataLoader.builder(train).batchSize(16).shuffle(true).build()) {
            for (int epoch = 0; epoch < epochs; epoch++) {
                model.train();
                int i = 0;
                for (List<Tensor> batch : loader) {
                    F.mseLoss(model.call(batch.get(0)), batch.get(1))
                            .div(accumulation)
                            .backward();
                    if (++i % accumulation == 0) {
                        optimizer.step();
                        optimizer.zeroGrad();
                    }
                }
                if (epoch >= swaStart) {
                    swa.updateParameters(model);
                    swaScheduler.step();
                } else cosine.step();
                last = heldOut(model, heldX, heldY);
                if (epoch == 0) first = last;
            }
            SwaUtils.updateBn(loader, swa); // batch-norm statistics for the averaged weights
        }
        return new Result(
                first, last, heldOut(swa, heldX, heldY), (long) swa.nAveraged().item());
    }

    private static double heldOut(org.jtorch.nn.Module m, Tensor x, Tensor y) {
        m.eval();
        try (var _ = Torch.noGrad()) {
            return F.mseLoss(m.call(x), y).item();
        }
    }
}
