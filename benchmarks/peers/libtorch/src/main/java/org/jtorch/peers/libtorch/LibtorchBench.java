package org.jtorch.peers.libtorch;

import static org.bytedeco.pytorch.global.torch.*;

import org.bytedeco.javacpp.PointerScope;
import org.bytedeco.pytorch.*;

/**
 * PyTorch 2.10's C++ library (libtorch, through the JavaCPP preset) as a peer of JTorch's benchmarks: one subcommand
 * per group, the same shapes, counts and bench names as the Python peers in benchmarks/peers, so that one row of
 * docs/benchmarks.md reads the same name from every peer. Temporaries are closed per call (close() or a
 * PointerScope) so that the JVM's collector never holds native tensors.
 *
 * <pre>LibtorchBench core|index|layernorm|mlp|transformer|xent [threads, default 2]</pre>
 */
public final class LibtorchBench {
    private LibtorchBench() {}

    public static void main(String[] args) {
        set_num_threads(args.length > 1 ? Integer.parseInt(args[1]) : 2);
        manual_seed(0);
        switch (args.length == 0 ? "" : args[0]) {
            case "core" -> core();
            case "index" -> index();
            case "layernorm" -> layerNorm();
            case "mlp" -> mlp();
            case "transformer" -> transformer();
            case "xent" -> xent();
            default -> {
                System.err.println("usage: LibtorchBench core|index|layernorm|mlp|transformer|xent [threads]");
                System.exit(2);
            }
        }
    }

    /** torch_core.py: 16M-element float32 elementwise ops and sum, 16-element adds, matmul 1024³. */
    static void core() {
        long n = 1L << 24;
        Tensor a = sin(arange(new Scalar(n)).to(ScalarType.Float));
        Tensor b = cos(arange(new Scalar(n)).to(ScalarType.Float));
        Tensor out = zeros(n);
        Timing.measure("addAlloc", () -> add(a, b).close(), 3, 20);
        Timing.measure("mulAlloc", () -> mul(a, b).close(), 3, 20);
        Timing.measure("expAlloc", () -> exp(a).close(), 3, 20);
        Timing.measure("addOut", () -> add_out(out, a, b), 3, 20);
        Timing.measure("mulOut", () -> mul_out(out, a, b), 3, 20);
        Timing.measure("expOut", () -> exp_out(out, a), 3, 20);
        Timing.measure("sum", () -> a.sum().close(), 3, 20);

        Tensor s1 = arange(new Scalar(16)).to(ScalarType.Float), s2 = ones(16);
        Timing.measure(
                "add16",
                () -> {
                    for (int i = 0; i < 100_000; i++) add(s1, s2).close();
                },
                1,
                5,
                "ns",
                1e9,
                100_000);
        Tensor x = ones(16).set_requires_grad(true);
        Timing.measure(
                "smallAddsWithGrad",
                () -> {
                    try (PointerScope scope = new PointerScope()) {
                        Tensor h = x;
                        for (int j = 0; j < 100; j++) h = add(h, s2);
                        h.sum().backward();
                        x.grad().zero_();
                    }
                },
                100,
                1000,
                "ns",
                1e9,
                100);

        long m = 1024;
        Tensor m1 = sin(arange(new Scalar(m * m)).to(ScalarType.Float)).view(m, m);
        Tensor m2 = cos(arange(new Scalar(m * m)).to(ScalarType.Float)).view(m, m);
        Timing.measure("matmul1024", () -> mm(m1, m2).close(), 3, 20);
    }

    /** torch_index_sort_random.py: gather, scatter_add and sort over 1M, randn of 16M. */
    static void index() {
        long m = 1L << 20;
        Tensor src = rand(m), index = randint(m, new long[] {m}), values = rand(m), dest = zeros(m);
        Timing.measure("gather1M", () -> gather(src, 0, index).close(), 3, 20);
        Timing.measure("scatterAdd1M", () -> scatter_add(dest, 0, index, values).close(), 3, 20);
        Timing.measure("sort1M", () -> sort(src).close(), 3, 20);
        Timing.measure("randn16M", () -> randn(16L << 20).close(), 3, 20);
    }

    /** torch_layer_norm.py: layer_norm over the last 256 of [16, 128, 256], forward and forward + backward. */
    static void layerNorm() {
        Tensor x = randn(16, 128, 256).set_requires_grad(true);
        Tensor w = randn(256).set_requires_grad(true), b = randn(256).set_requires_grad(true);
        Tensor g = randn(16, 128, 256);
        long[] shape = {256};
        Timing.measure(
                "layer_norm_forward",
                () -> {
                    try (PointerScope scope = new PointerScope()) {
                        layer_norm(x, shape, new TensorOptional(w), new TensorOptional(b), 1e-5, false);
                    }
                },
                50,
                400,
                "us",
                1e6,
                1);
        Timing.measure(
                "layer_norm_forward_backward",
                () -> {
                    try (PointerScope scope = new PointerScope()) {
                        layer_norm(x, shape, new TensorOptional(w), new TensorOptional(b), 1e-5, false)
                                .backward(g, new BoolOptional(), false, new TensorArrayRefOptional());
                        for (Tensor t : new Tensor[] {x, w, b}) t.grad().zero_();
                    }
                },
                50,
                400,
                "us",
                1e6,
                1);
    }

    /** torch_mlp_step.py: the MLP 784-256-10 step, batch 64, cross entropy, SGD lr 0.01, ms per step. */
    static void mlp() {
        Tensor x = randn(64, 784), y = randint(10, new long[] {64});
        Tensor w1 = randn(256, 784).mul(new Scalar(0.05)).set_requires_grad(true);
        Tensor b1 = zeros(256).set_requires_grad(true);
        Tensor w2 = randn(10, 256).mul(new Scalar(0.05)).set_requires_grad(true);
        Tensor b2 = zeros(10).set_requires_grad(true);
        SGD opt = new SGD(new TensorVector(w1, b1, w2, b2), new SGDOptions(0.01));
        Timing.measure(
                "mlp_step",
                () -> {
                    try (PointerScope scope = new PointerScope()) {
                        opt.zero_grad(true);
                        Tensor h = relu(linear(x, w1, new TensorOptional(b1)));
                        cross_entropy_loss(linear(h, w2, new TensorOptional(b2)), y)
                                .backward();
                        opt.step();
                    }
                },
                200,
                2000);
    }

    /**
     * The transformer-block step of torch_conv_transformer.py (pre-LN block, 4 heads, causal, GELU MLP 4x, final
     * layer norm, LM head + cross entropy, SGD), written with functional ops.
     */
    static void transformer() {
        long vocab = 8192, d = 256, t = 128, batch = 8, heads = 4, hd = d / heads;
        Tensor tok = randint(vocab, new long[] {batch, t}), tgt = randint(vocab, new long[] {batch * t});
        Tensor emb = param(randn(vocab, d).mul(new Scalar(0.02))), pos = param(randn(t, d).mul(new Scalar(0.02)));
        Tensor ln1w = param(ones(d)), ln1b = param(zeros(d)), ln2w = param(ones(d)), ln2b = param(zeros(d));
        Tensor lnfw = param(ones(d)), lnfb = param(zeros(d));
        Tensor wqkv = param(randn(3 * d, d).mul(new Scalar(0.02))), bqkv = param(zeros(3 * d));
        Tensor wo = param(randn(d, d).mul(new Scalar(0.02))), bo = param(zeros(d));
        Tensor w1 = param(randn(4 * d, d).mul(new Scalar(0.02))), b1 = param(zeros(4 * d));
        Tensor w2 = param(randn(d, 4 * d).mul(new Scalar(0.02))), b2 = param(zeros(d));
        Tensor wout = param(randn(vocab, d).mul(new Scalar(0.02)));
        Tensor mask = triu(full(new long[] {t, t}, new Scalar(Float.NEGATIVE_INFINITY)), 1);
        SGD opt = new SGD(
                new TensorVector(
                        emb, pos, ln1w, ln1b, ln2w, ln2b, lnfw, lnfb, wqkv, bqkv, wo, bo, w1, b1, w2, b2, wout),
                new SGDOptions(0.01));
        Scalar scale = new Scalar(1.0 / Math.sqrt(hd));
        long[] dims = {d};
        Timing.measure(
                "ConvTransformerBench.transformerBlockStep",
                () -> {
                    try (PointerScope scope = new PointerScope()) {
                        opt.zero_grad(true);
                        Tensor x = add(embedding(emb, tok), pos);
                        Tensor h = layer_norm(
                                x, dims, new TensorOptional(ln1w), new TensorOptional(ln1b), 1e-5, false);
                        Tensor qkv = linear(h, wqkv, new TensorOptional(bqkv));
                        Tensor q = heads(qkv.narrow(2, 0, d), batch, t, heads, hd);
                        Tensor k = heads(qkv.narrow(2, d, d), batch, t, heads, hd);
                        Tensor v = heads(qkv.narrow(2, 2 * d, d), batch, t, heads, hd);
                        Tensor att = softmax(add(q.matmul(k.transpose(-2, -1)).mul(scale), mask), -1);
                        Tensor o = att.matmul(v).transpose(1, 2).reshape(batch, t, d);
                        x = add(x, linear(o, wo, new TensorOptional(bo)));
                        h = layer_norm(x, dims, new TensorOptional(ln2w), new TensorOptional(ln2b), 1e-5, false);
                        x = add(x, linear(gelu(linear(h, w1, new TensorOptional(b1))), w2, new TensorOptional(b2)));
                        h = layer_norm(x, dims, new TensorOptional(lnfw), new TensorOptional(lnfb), 1e-5, false);
                        cross_entropy_loss(linear(h, wout).view(batch * t, vocab), tgt)
                                .backward();
                        opt.step();
                    }
                },
                3,
                20);
    }

    private static Tensor heads(Tensor t, long batch, long steps, long heads, long hd) {
        return t.reshape(batch, steps, heads, hd).transpose(1, 2);
    }

    /** torch_linear_cross_entropy.py: cross_entropy(linear(x, W), y), N 4096, D 1024, V 32768, forward + backward. */
    static void xent() {
        long n = 4096, d = 1024, vocab = 32768;
        Tensor hidden = param(randn(n, d)), weight = param(randn(vocab, d).mul(new Scalar(0.02)));
        Tensor target = randint(vocab, new long[] {n});
        Timing.measure(
                "torch_linear_cross_entropy_reference",
                () -> {
                    try (PointerScope scope = new PointerScope()) {
                        Tensor loss = cross_entropy_loss(linear(hidden, weight), target);
                        grad(new TensorVector(loss), new TensorVector(hidden, weight));
                    }
                },
                1,
                3);
    }

    private static Tensor param(Tensor t) {
        return t.set_requires_grad(true);
    }
}
