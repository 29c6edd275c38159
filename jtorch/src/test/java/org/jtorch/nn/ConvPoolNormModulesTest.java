package org.jtorch.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.nn.functional.F;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Bad input to the convolution, pooling, normalisation, embedding-bag and attention layers: PyTorch's exception class
 * and words.
 */
class ConvPoolNormModulesTest {
    private static void refuses(Class<? extends Throwable> type, String message, Executable call) {
        Throwable e = assertThrows(type, call);
        assertTrue(e.getMessage().contains(message), "message: " + e.getMessage());
    }

    @Test
    void convolutionLayersNameBothShapes() {
        Conv2d conv = new Conv2d(3, 4, 3);
        refuses(
                TorchException.class,
                "Given groups=1, weight of size [4, 3, 3, 3], expected input[2, 5, 8, 8] to have 3 channels, "
                        + "but got 5 channels instead",
                () -> conv.call(Torch.zeros(2, 5, 8, 8)));
        refuses(
                TorchException.class,
                "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [8, 8]",
                () -> conv.call(Torch.zeros(8, 8)));
        refuses(
                TorchException.class,
                "Calculated padded input size per channel: (2 x 2). Kernel size: (3 x 3)",
                () -> conv.call(Torch.zeros(1, 3, 2, 2)));
        refuses(
                TorchException.class,
                "Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: [2, 3, 8, 8]",
                () -> new Conv1d(3, 4, 3).call(Torch.zeros(2, 3, 8, 8)));
        refuses(
                TorchException.class,
                "Given groups=2, expected weight to be divisible by 2 at dimension 0, but got weight of size "
                        + "[[3, 2, 3, 3]] instead",
                () -> F.conv2d(
                        Torch.zeros(2, 4, 8, 8),
                        Torch.zeros(3, 2, 3, 3),
                        null,
                        new long[] {1},
                        new long[] {0},
                        new long[] {1},
                        2));
        refuses(
                TorchException.class,
                "Given weight of size [4, 3, 3, 3], expected bias to be 1-dimensional with 4 elements, but got "
                        + "bias of size [3] instead",
                () -> F.conv2d(Torch.zeros(2, 3, 8, 8), Torch.zeros(4, 3, 3, 3), Torch.zeros(3)));
        refuses(
                TorchException.class,
                "Input type (torch.FloatTensor) and weight type (torch.DoubleTensor) should be the same",
                () -> F.conv2d(Torch.zeros(2, 3, 8, 8), Torch.zeros(new long[] {4, 3, 3, 3}, DType.FLOAT64)));
        refuses(
                TorchException.class,
                "\"slow_conv2d_cpu\" not implemented for 'Bool'", // integers convolve, as in PyTorch; bool does not
                () -> F.conv2d(
                        Torch.zeros(2, 3, 8, 8).to(DType.BOOL),
                        Torch.zeros(4, 3, 3, 3).to(DType.BOOL)));
        refuses(
                TorchException.class,
                "padding='same' is not supported for strided convolutions",
                () -> F.conv2d(
                        Torch.zeros(1, 1, 4, 4),
                        Torch.zeros(1, 1, 3, 3),
                        null,
                        new long[] {2},
                        "same",
                        new long[] {1},
                        1));
        refuses(
                TorchException.class,
                "Invalid padding string: 'full'",
                () -> F.conv2d(
                        Torch.zeros(1, 1, 4, 4),
                        Torch.zeros(1, 1, 3, 3),
                        null,
                        new long[] {1},
                        "full",
                        new long[] {1},
                        1));
        refuses(
                IllegalArgumentException.class,
                "in_channels must be divisible by groups",
                () -> new Conv2d(3, 4, new long[] {3}, ConvOptions.defaults().groups(2)));
        refuses(
                IllegalArgumentException.class,
                "padding='same' is not supported for strided convolutions",
                () -> new Conv2d(
                        4, 4, new long[] {3}, ConvOptions.defaults().stride(2).padding("same")));
        refuses(
                IllegalArgumentException.class,
                "Invalid padding string 'foo', should be one of {'same', 'valid'}",
                () -> ConvOptions.defaults().padding("foo"));
    }

    @Test
    void unbatchedConvolutionDropsTheBatchDim() {
        Conv2d conv = new Conv2d(3, 2, new long[] {3}, ConvOptions.defaults().padding(1));
        Tensor x = Torch.randn(3, 5, 4);
        assertArrayEquals(new long[] {2, 5, 4}, conv.call(x).shape());
        assertArrayEquals(
                conv.call(x.unsqueeze(0)).squeeze(0).toDoubleArray(),
                conv.call(x).toDoubleArray(),
                0.0);
        assertEquals("Conv2d(3, 2, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))", conv.toString());
    }

    @Test
    void poolingErrors() {
        refuses(
                TorchException.class,
                "pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and dilation=1",
                () -> new MaxPool2d(new long[] {3}, null, new long[] {2}, new long[] {1}, false)
                        .call(Torch.zeros(1, 1, 8, 8)));
        refuses(TorchException.class, "non-empty 3D or 4D (batch mode) tensor expected for input", () -> new MaxPool2d(
                        2)
                .call(Torch.zeros(8, 8)));
        refuses(
                TorchException.class,
                "Given input size: (1x2x2). Calculated output size: (1x0x0). Output size is too small",
                () -> new AvgPool2d(3).call(Torch.zeros(1, 1, 2, 2)));
        refuses(
                TorchException.class,
                "divisor must be not zero",
                () -> F.avgPool2d(Torch.zeros(1, 1, 4, 4), new long[] {2}, null, new long[] {0}, false, true, 0L));
        refuses(
                TorchException.class,
                "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got [2, 8]",
                () -> new AdaptiveAvgPool2d(3).call(Torch.zeros(2, 8)));
        refuses(
                TorchException.class,
                "\"max_pool2d\" not implemented for 'Bool'",
                () -> F.maxPool2d(Torch.zeros(1, 1, 4, 4).to(DType.BOOL), 2));
        assertEquals(
                "MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)",
                new MaxPool2d(2).toString());
        assertEquals("AvgPool2d(kernel_size=2, stride=2, padding=0)", new AvgPool2d(2).toString());
    }

    @Test
    void adaptiveAvgPoolKeepsTheInputSizeWhereTheOutputSizeIsNone() {
        // PyTorch: repr(nn.AdaptiveAvgPool2d((None, 7))) == "AdaptiveAvgPool2d(output_size=(None, 7))"
        assertEquals("AdaptiveAvgPool2d(output_size=(None, 7))", new AdaptiveAvgPool2d(null, 7L).toString());
        assertEquals("AdaptiveAvgPool2d(output_size=(None, None))", new AdaptiveAvgPool2d(null, null).toString());
        assertEquals("AdaptiveAvgPool2d(output_size=(2, 3))", new AdaptiveAvgPool2d(2, 3).toString());
        assertEquals("AdaptiveAvgPool2d(output_size=3)", new AdaptiveAvgPool2d(3).toString());
        // (None, 1) over a 2x4 plane: each row's mean, by a naive loop
        Tensor x =
                Torch.arange(16.0).reshape(2, 2, 4).transpose(1, 2).contiguous().transpose(1, 2);
        assertFalse(x.isContiguous());
        double[] v = x.contiguous().toDoubleArray();
        double[] rowMeans = new double[4];
        for (int r = 0; r < 4; r++) rowMeans[r] = (v[4 * r] + v[4 * r + 1] + v[4 * r + 2] + v[4 * r + 3]) / 4;
        Tensor y = new AdaptiveAvgPool2d(null, 1L).call(x);
        assertArrayEquals(new long[] {2, 2, 1}, y.shape());
        assertArrayEquals(rowMeans, y.toDoubleArray(), 1e-12);
        Tensor same = F.adaptiveAvgPool2d(x, null, null);
        assertArrayEquals(v, same.toDoubleArray(), 0.0);
        assertArrayEquals(
                new long[] {2, 3, 5, 2},
                F.adaptiveAvgPool2d(
                                Torch.zeros(new long[] {2, 3, 5, 7}, DType.FLOAT32, org.jtorch.Device.META), null, 2L)
                        .shape());
        refuses(
                IllegalArgumentException.class,
                "Input dimension should be at least 3",
                () -> F.adaptiveAvgPool2d(Torch.zeros(4, 4), null, 2L));
    }

    @Test
    void avgPoolOfInt64TruncatesTheDivisionTowardZero() {
        // PyTorch (1.13 and 2.x CPU kernels dispatch avg_pool2d over floating types and Long): F.avg_pool2d(x, 2, 1) of
        // [[-7, 2, 5], [3, -4, 9], [1, 1, 1]] is [[-1, 3], [0, 1]]: -6/4 -> -1, 12/4 -> 3, 1/4 -> 0, 7/4 -> 1
        Tensor x = Torch.tensor(new long[] {-7, 2, 5, 3, -4, 9, 1, 1, 1}).reshape(1, 3, 3);
        Tensor y = F.avgPool2d(x, new long[] {2}, new long[] {1}, new long[] {0}, false, true, null);
        assertEquals(DType.INT64, y.dtype());
        assertArrayEquals(new long[] {-1, 3, 0, 1}, y.toLongArray());
        // padding 1, count_include_pad=False: the corner window holds -7 alone; divisor_override 3: -6/3 = -2
        assertArrayEquals(
                new long[] {-7, -2, 3, 5, -2, -1, 3, 7, 2, 0, 1, 5, 1, 1, 1, 1},
                F.avgPool2d(x, new long[] {2}, new long[] {1}, new long[] {1}, false, false, null)
                        .toLongArray());
        assertArrayEquals(
                new long[] {-2, 4, 0, 2},
                F.avgPool2d(x, new long[] {2}, new long[] {1}, new long[] {0}, false, true, 3L)
                        .toLongArray());
        // a transposed input gives its contiguous copy's result
        assertArrayEquals(
                F.avgPool2d(
                                x.transpose(1, 2).contiguous(),
                                new long[] {2},
                                new long[] {1},
                                new long[] {0},
                                false,
                                true,
                                null)
                        .toLongArray(),
                F.avgPool2d(x.transpose(1, 2), new long[] {2}, new long[] {1}, new long[] {0}, false, true, null)
                        .toLongArray());
        assertEquals(
                DType.INT64,
                F.avgPool2d(Torch.zeros(new long[] {1, 3, 3}, DType.INT64, org.jtorch.Device.META), 2)
                        .dtype());
        // PyTorch: every other integer dtype (and adaptive pooling of Long) is refused
        refuses(
                TorchException.class,
                "\"avg_pool2d\" not implemented for 'Int'",
                () -> F.avgPool2d(x.to(DType.INT32), 2));
        refuses(
                TorchException.class,
                "\"avg_pool2d\" not implemented for 'Bool'",
                () -> F.avgPool2d(x.to(DType.BOOL), 2));
        refuses(
                TorchException.class,
                "\"adaptive_avg_pool2d\" not implemented for 'Long'",
                () -> F.adaptiveAvgPool2d(x, 2));
    }

    @Test
    void maxPoolPropagatesNaNAndKeepsTheFirstOfEqualMaxima() {
        // PyTorch 1.13: values (nan, 5), indices (5, 6): the last NaN of a window wins, the first of equal maxima
        Tensor x = Torch.tensor(new double[] {1, Double.NaN, 3, 0, 2, Double.NaN, 5, 5})
                .reshape(1, 2, 4);
        var r = F.maxPool2dWithIndices(x, new long[] {2}, null, new long[] {0}, new long[] {1}, false);
        double[] v = r.values().toDoubleArray();
        assertTrue(Double.isNaN(v[0]));
        assertEquals(5.0, v[1]);
        assertArrayEquals(new long[] {5, 6}, r.indices().toLongArray());
        Tensor ties = Torch.tensor(new double[] {2, 2, 2, 2}).reshape(1, 2, 2);
        assertArrayEquals(
                new long[] {0},
                F.maxPool2dWithIndices(ties, new long[] {2}, null, new long[] {0}, new long[] {1}, false)
                        .indices()
                        .toLongArray());
    }

    @Test
    void normalisationLayerErrors() {
        refuses(TorchException.class, "running_mean should contain 4 elements not 3", () -> new BatchNorm2d(3)
                .call(Torch.zeros(2, 4, 5, 5)));
        refuses(IllegalArgumentException.class, "expected 4D input (got 3D input)", () -> new BatchNorm2d(3)
                .call(Torch.zeros(2, 3, 5)));
        refuses(IllegalArgumentException.class, "expected 2D or 3D input (got 4D input)", () -> new BatchNorm1d(3)
                .call(Torch.zeros(2, 3, 5, 5)));
        refuses(
                IllegalArgumentException.class,
                "Expected more than 1 value per channel when training, got input size torch.Size([1, 3])",
                () -> new BatchNorm1d(3).call(Torch.zeros(1, 3)));
        BatchNorm1d eval = new BatchNorm1d(3);
        eval.eval();
        assertArrayEquals(new long[] {1, 3}, eval.call(Torch.zeros(1, 3)).shape());
        refuses(
                TorchException.class,
                "running_mean must be defined in evaluation mode",
                () -> F.batchNorm(Torch.zeros(2, 3), null, null));
        refuses(
                IllegalArgumentException.class,
                "num_channels must be divisible by num_groups",
                () -> new GroupNorm(2, 5));
        refuses(
                TorchException.class,
                "Expected weight to be a vector of size equal to the number of channels in input, but got weight of "
                        + "shape [4] and input of shape [2, 6, 3]",
                () -> new GroupNorm(2, 4).call(Torch.zeros(2, 6, 3)));
        refuses(
                TorchException.class,
                "Expected number of channels in input to be divisible by num_groups, but got input of shape "
                        + "[2, 6, 3] and num_groups=4",
                () -> F.groupNorm(Torch.zeros(2, 6, 3), 4));
        assertEquals(
                "BatchNorm2d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)",
                new BatchNorm2d(3).toString());
    }

    @Test
    void batchNormWithoutRunningStatsUsesBatchStatisticsInEval() {
        BatchNorm1d bn = new BatchNorm1d(2, 1e-5, 0.1, false, false);
        assertNull(bn.runningMean());
        bn.eval();
        Tensor x = Torch.tensor(new double[][] {{1, 10}, {3, 30}}).to(DType.FLOAT32);
        // batch statistics: mean (2, 20), biased var (1, 100) → ±1 per column
        assertArrayEquals(new double[] {-1, -1, 1, 1}, bn.call(x).toDoubleArray(), 1e-4);
    }

    @Test
    void layerErrors() {
        refuses(
                TorchException.class,
                "bilinear(): input2 size does not match weight size: got 5 but expected 4",
                () -> new Bilinear(3, 4, 5).forward(Torch.zeros(2, 3), Torch.zeros(2, 5)));
        refuses(
                TorchException.class,
                "bilinear(): input batch dimensions do not match: got 2 and 3",
                () -> new Bilinear(3, 4, 5).forward(Torch.zeros(2, 3), Torch.zeros(3, 4)));
        EmbeddingBag bag = new EmbeddingBag(10, 3);
        Tensor idx = Torch.tensor(new long[] {1, 2, 3});
        refuses(
                IllegalArgumentException.class,
                "offsets has to be a 1D Tensor but got None",
                () -> bag.forward(idx, null, null));
        refuses(
                TorchException.class,
                "offsets[0] has to be 0",
                () -> bag.forward(idx, Torch.tensor(new long[] {1, 2}), null));
        refuses(
                UnsupportedOperationException.class,
                "per_sample_weights is only supported for mode='sum' (got mode='mean')",
                () -> bag.forward(idx, Torch.tensor(new long[] {0, 1}), Torch.ones(3)));
        refuses(
                IllegalArgumentException.class,
                "if input is 2D, then offsets has to be None",
                () -> bag.forward(idx.reshape(1, 3), Torch.tensor(new long[] {0}), null));
        refuses(
                IndexOutOfBoundsException.class,
                "index 30",
                () -> bag.forward(Torch.tensor(new long[] {1, 30}), Torch.tensor(new long[] {0}), null));
        refuses(
                IllegalArgumentException.class,
                "mode has to be one of sum, mean or max",
                () -> new EmbeddingBag(10, 3, "foo", false, null));
        refuses(
                IllegalArgumentException.class,
                "embed_dim must be divisible by num_heads",
                () -> new MultiheadAttention(8, 3));
        MultiheadAttention mha = new MultiheadAttention(8, 2);
        refuses(
                IllegalArgumentException.class,
                "was expecting embedding dimension of 8, but got 6",
                () -> mha.forward(Torch.zeros(3, 2, 6), Torch.zeros(3, 2, 6), Torch.zeros(3, 2, 6)));
        refuses(
                IllegalArgumentException.class,
                "key shape torch.Size([4, 2, 8]) does not match value shape torch.Size([5, 2, 8])",
                () -> mha.forward(Torch.zeros(3, 2, 8), Torch.zeros(4, 2, 8), Torch.zeros(5, 2, 8)));
        refuses(
                IllegalArgumentException.class,
                "expecting key_padding_mask shape of (2, 4), but got torch.Size([2, 5])",
                () -> mha.forward(
                        Torch.zeros(3, 2, 8),
                        Torch.zeros(4, 2, 8),
                        Torch.zeros(4, 2, 8),
                        Torch.zeros(new long[] {2, 5}, DType.BOOL, org.jtorch.Device.CPU),
                        true,
                        null,
                        true));
        refuses(
                TorchException.class,
                "The shape of the 2D attn_mask is torch.Size([3, 3]), but should be (3, 4).",
                () -> mha.forward(
                        Torch.zeros(3, 2, 8),
                        Torch.zeros(4, 2, 8),
                        Torch.zeros(4, 2, 8),
                        null,
                        true,
                        Torch.zeros(3, 3),
                        true));
        refuses(
                TorchException.class,
                "activation should be relu/gelu, not foo",
                () -> new TransformerEncoderLayer(8, 2, 16, 0.1, "foo", 1e-5, false, false, true));
    }

    @Test
    void embeddingMaxNormRenormalisesOnlyTheLookedUpRowsInPlace() {
        Embedding e = new Embedding(3, 2, null, 1.0, 2.0);
        try (var _ = Torch.noGrad()) {
            e.weight().copy_(Torch.tensor(new float[][] {{3, 4}, {0.3f, 0.4f}, {6, 8}}));
        }
        Tensor out = e.call(Torch.tensor(new long[] {0, 1}));
        // row 0 had norm 5 → scaled by 1/(5 + 1e-7); row 1 (norm 0.5) and the unused row 2 are untouched
        assertArrayEquals(new double[] {0.6, 0.8, 0.3, 0.4, 6, 8}, e.weight().toDoubleArray(), 1e-6);
        assertArrayEquals(new double[] {0.6, 0.8, 0.3, 0.4}, out.toDoubleArray(), 1e-6);
        assertEquals("Embedding(3, 2, max_norm=1.0)", e.toString());
    }

    @Test
    void multiheadAttentionWithoutWeightsMatchesTheWeightsPath() {
        Torch.manualSeed(3);
        MultiheadAttention mha = new MultiheadAttention(8, 2, 0.0, true, null, null, true);
        Tensor q = Torch.randn(2, 3, 8), k = Torch.randn(2, 4, 8);
        Tensor kpm = Torch.tensor(new boolean[] {false, false, true, false, false, false, false, true})
                .reshape(2, 4);
        var withWeights = mha.forward(q, k, k, kpm, true, null, true);
        var without = mha.forward(q, k, k, kpm, false, null, true);
        assertNull(without.attnWeights());
        assertArrayEquals(
                withWeights.attnOutput().toDoubleArray(), without.attnOutput().toDoubleArray(), 1e-5);
        // a masked key gets no weight
        assertEquals(
                0.0, withWeights.attnWeights().select(0, 0).select(1, 2).sum().item(), 0.0);
    }
}
