package org.jtorch.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.Conv2d;
import org.jtorch.nn.ConvOptions;
import org.jtorch.nn.LayerNorm;
import org.jtorch.nn.TransformerEncoderLayer;
import org.jtorch.nn.functional.F;
import org.jtorch.optim.SGD;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Conv2d forward + backward (batch 32, 3 → 64 channels, 64×64 images, 3×3, padding 1), and the transformer-block
 * training step of the peers' harness (shared/peers, torch_bench.py "transformer": B 8, T 128, D 256, 4 heads,
 * vocabulary 8192, causal, GELU MLP 4×, LM head + cross entropy, SGD) written with {@link TransformerEncoderLayer}
 * (norm_first, GELU, batch_first, dropout 0) and a final LayerNorm. PyTorch peers:
 * benchmarks/peers/torch_conv_transformer.py.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ConvTransformerBench {
    static final int V = 8192, D = 256, T = 128, B = 8, H = 4;

    Conv2d conv;
    Tensor image;

    TransformerEncoderLayer block;
    LayerNorm lnf;
    Tensor emb, pos, wout, tok, tgt, mask;
    SGD opt;

    @Setup
    public void setup() {
        Torch.manualSeed(0);
        conv = new Conv2d(3, 64, new long[] {3}, ConvOptions.defaults().padding(1));
        image = Torch.randn(32, 3, 64, 64).requiresGrad(true);

        tok = Torch.randint(0, V, B, T);
        tgt = Torch.randint(0, V, B * T);
        emb = Torch.randn(V, D).mul(0.02).detach().requiresGrad(true);
        pos = Torch.randn(T, D).mul(0.02).detach().requiresGrad(true);
        wout = Torch.randn(V, D).mul(0.02).detach().requiresGrad(true);
        block = new TransformerEncoderLayer(D, H, 4 * D, 0.0, "gelu", 1e-5, true, true, true);
        lnf = new LayerNorm(D);
        mask = Torch.triu(Torch.full(new long[] {T, T}, Double.NEGATIVE_INFINITY), 1);
        List<Tensor> params = new ArrayList<>(List.of(emb, pos));
        params.addAll(block.parameters());
        params.addAll(lnf.parameters());
        params.add(wout);
        opt = new SGD(params, SGD.Options.defaults().lr(0.01));
    }

    @Benchmark
    public Tensor conv2dForwardBackward() {
        Tensor y = conv.call(image);
        y.sum().backward();
        conv.zeroGrad();
        image.setGrad(null);
        return y;
    }

    @Benchmark
    public Tensor transformerBlockStep() {
        opt.zeroGrad();
        Tensor x = F.embedding(tok, emb).add(pos);
        Tensor h = lnf.call(block.forward(x, mask, null));
        Tensor loss = F.crossEntropy(F.linear(h, wout).view(B * T, V), tgt);
        loss.backward();
        opt.step(null);
        return loss;
    }
}
