package org.jtorch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jtorch.nn.functional.F;
import org.jtorch.optim.SGD;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Under {@code Torch.useDeterministicAlgorithms(true)} every JTorch loop whose work is split across threads gives the
 * same bits with 1 and 2 intra-op threads: the float reductions (fixed blocks), scans, softmax, the accumulating
 * scatters with duplicate indices (index_add, scatter_add, index_put and put with accumulate), embedding's and
 * layer_norm's gradients, histograms, and the matrix products (matmul, bmm, linear, convolution and their gradients),
 * whose GEMMs are cut into blocks that depend on the shapes only. The inputs are large enough for every one of them to
 * be split (more than {@code Parallel.GRAIN} elements per range, more than 64³ multiply-adds per product). A whole
 * training run gives the same bits while other application threads run it concurrently. The reference is the
 * single-threaded (or serial) run: the property under test is that neither the thread count nor other threads can be
 * seen in the result (spec compile-debug.md §2).
 */
class ThreadCountDeterminismTest {
    private int threads;

    @BeforeEach
    void deterministic() {
        threads = Torch.getNumThreads();
        Torch.useDeterministicAlgorithms(true);
    }

    @AfterEach
    void restore() {
        Torch.useDeterministicAlgorithms(false);
        Torch.setNumThreads(threads);
    }

    static Stream<Arguments> kernels() {
        List<Arguments> k = new ArrayList<>();
        k.add(Arguments.of(
                "sum of 10^6 float32", work(() -> List.of(randn(1, 1_000_000).sum()))));
        k.add(Arguments.of("sum/mean over the last dim", work(() -> {
            Tensor x = randn(2, 64, 40_000);
            return List.of(x.sum(-1), x.mean(-1), x.sum(new long[] {0, 2}, false));
        })));
        k.add(Arguments.of(
                "sum over a leading dim", work(() -> List.of(randn(3, 3000, 300).sum(0)))));
        k.add(Arguments.of("float64 mean, var, std, norm, logsumexp", work(() -> {
            Tensor x = randn(4, 300, 1000).to(DType.FLOAT64);
            return List.of(x.mean(), x.var(), x.std(2), Torch.norm(x), x.logsumexp(1), x.prod(2));
        })));
        k.add(Arguments.of("cumsum, softmax, log_softmax", work(() -> {
            Tensor x = randn(3, 200, 800);
            return List.of(x.cumsum(2), x.cumsum(1), x.softmax(-1), x.logSoftmax(1));
        })));
        k.add(Arguments.of("index_add_ with duplicate indices", work(() -> {
            Tensor index = randint(50, 400_000);
            Tensor dst = Torch.zeros(50, 8);
            return List.of(dst.indexAdd_(0, index, randn(400_000, 8)));
        })));
        k.add(Arguments.of("scatter_add_ with duplicate indices", work(() -> {
            Tensor index = randint(64, 300, 512);
            return List.of(Torch.zeros(64, 512).scatterAdd_(0, index, randn(300, 512)));
        })));
        k.add(Arguments.of("index_put_ and put_ with accumulate", work(() -> {
            Tensor index = randint(100, 300_000);
            Tensor values = randn(300_000);
            return List.of(
                    Torch.zeros(100).indexPut_(new Tensor[] {index}, values, true),
                    Torch.zeros(10, 10).put_(index, values, true));
        })));
        k.add(Arguments.of("embedding backward", work(() -> {
            Tensor weight = randn(100, 64).requiresGrad(true);
            Tensor input = randint(100, 64, 1000);
            F.embedding(input, weight).mul(randn(64, 1000, 64)).sum().backward();
            return List.of(weight.grad());
        })));
        k.add(Arguments.of("layer_norm forward and backward", work(() -> {
            Tensor x = randn(4096, 256).requiresGrad(true);
            Tensor w = randn(256).requiresGrad(true), b = randn(256).requiresGrad(true);
            Tensor y = F.layerNorm(x, new long[] {256}, w, b, 1e-5);
            y.mul(randn(4096, 256)).sum().backward();
            return List.of(y.detach(), x.grad(), w.grad(), b.grad());
        })));
        // Shapes with remainder tiles at every block edge, products cut by rows and by columns, and each layout.
        for (long[] mnk : new long[][] {{300, 170, 230}, {55, 900, 130}, {1000, 77, 61}, {37, 41, 2000}}) {
            k.add(Arguments.of("matmul " + mnk[0] + "x" + mnk[1] + "x" + mnk[2] + " float32 and float64", work(() -> {
                Tensor a = randn(mnk[0], mnk[2]), b = randn(mnk[2], mnk[1]), bt = randn(mnk[1], mnk[2]);
                return List.of(
                        a.matmul(b),
                        a.matmul(bt.t()),
                        a.t().contiguous().t().matmul(b),
                        a.to(DType.FLOAT64).matmul(b.to(DType.FLOAT64)));
            })));
        }
        k.add(Arguments.of("bmm and baddbmm, complex matmul", work(() -> {
            Tensor a = randn(3, 130, 250), b = randn(3, 250, 190);
            Tensor z = Torch.complex(randn(200, 150), randn(200, 150));
            return List.of(
                    a.bmm(b), Torch.baddbmm(randn(3, 130, 190), a, b, 0.5, 2.0), Torch.viewAsReal(z.matmul(z.t())));
        })));
        k.add(Arguments.of("linear and conv2d, forward and backward", work(() -> {
            Tensor x = randn(8, 16, 30, 30).requiresGrad(true);
            Tensor w = randn(32, 16, 3, 3).requiresGrad(true), bias = randn(32).requiresGrad(true);
            Tensor lw = randn(100, 32 * 28 * 28).requiresGrad(true);
            Tensor y = F.linear(F.conv2d(x, w, bias).flatten(1), lw, null);
            y.mul(randn(8, 100)).sum().backward();
            return List.of(y.detach(), x.grad(), w.grad(), bias.grad(), lw.grad());
        })));
        k.add(Arguments.of("histc and bincount with weights", work(() -> {
            Tensor x = randn(400_000);
            return List.of(Torch.histc(x, 30, -3, 3), Torch.bincount(randint(40, 400_000), x));
        })));
        return k.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kernels")
    void oneAndTwoThreadsGiveTheSameBits(String name, Supplier<List<Tensor>> kernel) {
        Torch.setNumThreads(1);
        List<long[]> one = bits(kernel.get());
        Torch.setNumThreads(2);
        assertSameBits(name, one, bits(kernel.get()));
    }

    @Test
    void aTrainingRunGivesTheSameBitsUnderConcurrentLoad() throws Exception {
        Torch.setNumThreads(2);
        List<long[]> reference = bits(train());
        // three application threads training at once: their ranges run serially with the same piece boundaries
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<List<Tensor>>> runs = new ArrayList<>();
            for (int i = 0; i < 3; i++) runs.add(pool.submit(ThreadCountDeterminismTest::train));
            for (Future<List<Tensor>> run : runs) assertSameBits("concurrent", reference, bits(run.get()));
        } finally {
            pool.shutdown();
        }
    }

    /**
     * Five SGD steps of an embedding, layer-norm and two-layer perceptron classifier on seeded data; returns the
     * parameters.
     */
    private static List<Tensor> train() {
        Generator g = new Generator().manualSeed(7);
        Tensor emb = Torch.randn(new long[] {500, 64}, g).requiresGrad(true);
        Tensor lnW = Torch.ones(64).requiresGrad(true), lnB = Torch.zeros(64).requiresGrad(true);
        Tensor w1 = Torch.randn(new long[] {256, 64}, g).mul(0.1).requiresGrad(true);
        Tensor b1 = Torch.zeros(256).requiresGrad(true);
        Tensor w2 = Torch.randn(new long[] {10, 256}, g).mul(0.1).requiresGrad(true);
        Tensor b2 = Torch.zeros(10).requiresGrad(true);
        List<Tensor> params = List.of(emb, lnW, lnB, w1, b1, w2, b2);
        SGD opt = new SGD(params, 0.1);
        for (int step = 0; step < 5; step++) {
            Tensor tokens = Torch.randint(0, 500, new long[] {1024}, g);
            Tensor target = Torch.randint(0, 10, new long[] {1024}, g);
            Tensor h = F.layerNorm(F.embedding(tokens, emb), new long[] {64}, lnW, lnB, 1e-5);
            Tensor logits = F.linear(F.relu(F.linear(h, w1, b1)), w2, b2);
            opt.zeroGrad();
            F.crossEntropy(logits, target).backward();
            opt.step(null);
        }
        List<Tensor> out = new ArrayList<>();
        for (Tensor p : params) out.add(p.detach());
        return out;
    }

    private static final ThreadLocal<Generator> GEN = new ThreadLocal<>();

    /** A kernel run whose inputs come from a generator seeded afresh for each run. */
    private static Supplier<List<Tensor>> work(Supplier<List<Tensor>> body) {
        return () -> {
            GEN.set(new Generator().manualSeed(0));
            try {
                return body.get();
            } finally {
                GEN.remove();
            }
        };
    }

    private static Tensor randn(long... shape) {
        return Torch.randn(shape, GEN.get());
    }

    private static Tensor randint(long high, long... shape) {
        return Torch.randint(0, high, shape, GEN.get());
    }

    private static List<long[]> bits(List<Tensor> ts) {
        List<long[]> out = new ArrayList<>();
        for (Tensor t : ts) {
            double[] v = t.toDoubleArray(); // exact for every dtype used here
            long[] b = new long[v.length];
            for (int i = 0; i < v.length; i++) b[i] = Double.doubleToRawLongBits(v[i]);
            out.add(b);
        }
        return out;
    }

    private static void assertSameBits(String what, List<long[]> expected, List<long[]> actual) {
        assertEquals(expected.size(), actual.size(), what);
        for (int i = 0; i < expected.size(); i++)
            assertArrayEquals(expected.get(i), actual.get(i), what + ", output " + i);
    }
}
