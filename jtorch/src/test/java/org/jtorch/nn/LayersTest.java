package org.jtorch.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.optim.SGD;
import org.junit.jupiter.api.Test;

/** Layers against hand computations, containers, and a small MLP trained with SGD. */
class LayersTest {
    @Test
    void linearForwardIsTheHandProduct() {
        Linear m = new Linear(3, 2);
        m.loadStateDict(java.util.Map.of(
                "weight", Torch.tensor(new double[][] {{1, 2, 3}, {-1, 0, 2}}), "bias", Torch.tensor(new double[] {
                    0.5, -0.5
                })));
        Tensor x = Torch.tensor(new double[][] {{1, 1, 1}, {2, 0, -1}}).to(DType.FLOAT32);
        // row 0: [1+2+3+0.5, -1+0+2-0.5]; row 1: [2-3+0.5, -2-2-0.5]
        assertArrayEquals(new double[] {6.5, 0.5, -0.5, -4.5}, m.call(x).toDoubleArray(), 1e-6);
        // a transposed (non-contiguous) input and a 3-D batch give the same rows
        Tensor xt = Torch.tensor(new double[][] {{1, 2}, {1, 0}, {1, -1}})
                .to(DType.FLOAT32)
                .t();
        assertArrayEquals(new double[] {6.5, 0.5, -0.5, -4.5}, m.call(xt).toDoubleArray(), 1e-6);
        assertArrayEquals(new long[] {1, 2, 2}, m.call(x.unsqueeze(0)).shape());
    }

    @Test
    void linearWithoutBiasAndShapes() {
        Linear m = new Linear(4, 3, false);
        assertNull(m.bias());
        assertArrayEquals(new long[] {3, 4}, m.weight().shape());
        assertEquals(List.of("weight"), List.copyOf(m.stateDict().keySet()));
        Tensor x = Torch.randn(5, 4);
        assertArrayEquals(x.matmul(m.weight().t()).toDoubleArray(), m.call(x).toDoubleArray(), 1e-6);
        assertEquals(
                DType.FLOAT64, new Linear(2, 2, true, DType.FLOAT64).weight().dtype());
    }

    @Test
    void linearInitIsBoundedByOneOverSqrtFanIn() {
        Linear m = new Linear(16, 64);
        double bound = 1 / Math.sqrt(16);
        assertTrue(m.weight().abs().max().item() <= bound);
        assertTrue(m.bias().abs().max().item() <= bound);
        assertTrue(m.weight().abs().max().item() > 0.9 * bound, "U(-b, b) fills most of its range");
    }

    @Test
    void embeddingLooksUpRowsAndSkipsThePaddingGradient() {
        Embedding e = new Embedding(4, 2, -1L);
        assertEquals(3L, e.paddingIdx());
        assertArrayEquals(new double[] {0, 0}, e.weight().select(0, 3).toDoubleArray());
        Tensor idx = Torch.tensor(new long[] {2, 3, 2});
        Tensor out = e.call(idx);
        assertArrayEquals(new long[] {3, 2}, out.shape());
        assertArrayEquals(
                e.weight().select(0, 2).toDoubleArray(), out.select(0, 0).toDoubleArray());
        out.sum().backward();
        assertArrayEquals(
                new double[] {0, 0, 0, 0, 2, 2, 0, 0}, e.weight().grad().toDoubleArray());
        assertThrows(IllegalArgumentException.class, () -> new Embedding(4, 2, 4L));
    }

    @Test
    void layerNormAndRmsNormMatchTheirFormulas() {
        Tensor x = Torch.tensor(new double[][] {{1, 2, 3, 4}, {-2, 0, 2, 8}});
        LayerNorm ln = (LayerNorm) new LayerNorm(new long[] {4}, 1e-5, true, true).to(DType.FLOAT64);
        double[] got = ln.call(x).toDoubleArray();
        double[] rms = ((RMSNorm) new RMSNorm(new long[] {4}, 1e-6, true).to(DType.FLOAT64))
                .call(x)
                .toDoubleArray();
        double[][] rows = {{1, 2, 3, 4}, {-2, 0, 2, 8}};
        for (int r = 0; r < 2; r++) {
            double mean = 0, var = 0, ms = 0;
            for (double v : rows[r]) {
                mean += v / 4;
                ms += v * v / 4;
            }
            for (double v : rows[r]) var += (v - mean) * (v - mean) / 4;
            for (int c = 0; c < 4; c++) {
                assertEquals((rows[r][c] - mean) / Math.sqrt(var + 1e-5), got[r * 4 + c], 1e-12);
                assertEquals(rows[r][c] / Math.sqrt(ms + 1e-6), rms[r * 4 + c], 1e-12);
            }
        }
        assertEquals(List.of("weight", "bias"), List.copyOf(ln.stateDict().keySet()));
        assertNull(new LayerNorm(new long[] {4}, 1e-5, false, true).weight());
    }

    @Test
    void activations() {
        Tensor x = Torch.tensor(new double[] {-2, -0.5, 0.5, 3});
        assertArrayEquals(new double[] {0, 0, 0.5, 3}, new ReLU().call(x).toDoubleArray());
        assertArrayEquals(
                new double[] {-0.02, -0.005, 0.5, 3}, new LeakyReLU().call(x).toDoubleArray(), 1e-15);
        assertArrayEquals(
                new double[] {-1, -0.25, 0.5, 3}, new LeakyReLU(0.5).call(x).toDoubleArray(), 1e-15);
        for (int i = 0; i < 4; i++) {
            double v = x.toDoubleArray()[i], s = 1 / (1 + Math.exp(-v));
            assertEquals(Math.tanh(v), new Tanh().call(x).toDoubleArray()[i], 1e-12);
            assertEquals(s, new Sigmoid().call(x).toDoubleArray()[i], 1e-12);
            assertEquals(v * s, new SiLU().call(x).toDoubleArray()[i], 1e-12);
            double tanhApprox = 0.5 * v * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (v + 0.044715 * v * v * v)));
            assertEquals(tanhApprox, new GELU("tanh").call(x).toDoubleArray()[i], 1e-12);
        }
        assertEquals(0.5 * 3 * (1 + 0.9973002039367398), new GELU().call(x).toDoubleArray()[3], 1e-12); // erf(3/√2)
        double z = Math.exp(-2) + Math.exp(-0.5) + Math.exp(0.5) + Math.exp(3);
        assertEquals(Math.exp(3) / z, new Softmax(0).call(x).toDoubleArray()[3], 1e-12);
        assertEquals(3 - Math.log(z), new LogSoftmax(-1).call(x).toDoubleArray()[3], 1e-12);
        assertThrows(IllegalArgumentException.class, () -> new GELU("fast"));
    }

    @Test
    void flattenUnflattenIdentity() {
        Tensor x = Torch.randn(2, 3, 4);
        assertArrayEquals(new long[] {2, 12}, new Flatten().call(x).shape());
        assertArrayEquals(new long[] {24}, new Flatten(0, -1).call(x).shape());
        assertArrayEquals(
                new long[] {2, 3, 2, 2}, new Unflatten(2, 2, 2).call(x).shape());
        assertSame(x, new Identity().call(x));
    }

    @Test
    void dropoutChecksP() {
        assertEquals(
                "dropout probability has to be between 0 and 1, but got 1.5",
                assertThrows(IllegalArgumentException.class, () -> new Dropout(1.5))
                        .getMessage());
        assertArrayEquals(
                new double[] {0, 0}, new Dropout(1.0).call(Torch.ones(2)).toDoubleArray());
    }

    @Test
    void sequentialIndexingAndSlicing() {
        ReLU a = new ReLU();
        Tanh b = new Tanh();
        Identity c = new Identity();
        Sequential s = new Sequential(a, b, c);
        assertEquals(3, s.size());
        assertSame(b, s.get(1));
        assertSame(c, s.get(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> s.get(3));
        assertEquals(2, s.slice(1, 3).size());
        assertSame(b, s.slice(1, 3).get(0));
        assertEquals(2, s.slice(-2, 100).size());
        assertEquals(0, s.slice(2, 1).size());
        Tensor x = Torch.tensor(new double[] {-1, 1});
        assertArrayEquals(new double[] {0, Math.tanh(1)}, s.call(x).toDoubleArray(), 1e-12);
    }

    @Test
    void listDictAndParameterListRegisterTheirEntries() {
        ModuleList list = new ModuleList(new Linear(2, 2)).append(new Linear(2, 1));
        assertEquals(
                List.of("0.weight", "0.bias", "1.weight", "1.bias"),
                List.copyOf(list.namedParameters().keySet()));
        assertEquals(2, list.size());
        ModuleDict dict = new ModuleDict().put("enc", new Linear(2, 2)).put("act", new ReLU());
        assertEquals(List.of("enc", "act"), dict.keys());
        assertEquals(
                List.of("enc.weight", "enc.bias"), List.copyOf(dict.stateDict().keySet()));
        ParameterList params = new ParameterList(Torch.zeros(2), Torch.ones(3));
        assertEquals(List.of("0", "1"), List.copyOf(params.namedParameters().keySet()));
        assertTrue(params.get(1).requiresGrad());
        assertEquals(3, params.get(-1).numel());
    }

    @Test
    void smallMlpTrainsWithSgd() {
        Torch.manualSeed(0);
        Sequential mlp = new Sequential(new Linear(2, 16), new Tanh(), new Linear(16, 1));
        // y = x0 - 2·x1 on a fixed grid
        Tensor x = Torch.tensor(new double[][] {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {-1, 0.5}, {0.5, -1}})
                .to(DType.FLOAT32);
        Tensor y = x.select(1, 0).sub(x.select(1, 1).mul(2.0)).unsqueeze(1);
        SGD opt = new SGD(mlp.parameters(), SGD.Options.defaults().lr(0.05));
        double first = 0, last = 0;
        for (int step = 0; step < 50; step++) {
            opt.zeroGrad();
            Tensor loss = mlp.call(x).sub(y).square().mean();
            loss.backward();
            opt.step();
            if (step == 0) first = loss.item();
            last = loss.item();
        }
        assertTrue(last < 0.5 * first, "loss " + first + " -> " + last);
    }
}
