package org.jtorch.onnx;

import static org.jtorch.onnx.Lowering.dtype;
import static org.jtorch.onnx.Lowering.shape;
import static org.jtorch.onnx.Lowering.unsupported;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Torch;
import org.jtorch.fx.Node;

/** The neural-network ATen ops: matrix products, convolution, pooling, normalization, softmax, attention. */
final class NnOps {
    private NnOps() {}

    static void register(Map<String, OpLowering> table) {
        table.put("aten.addmm.default", NnOps::addmm);
        for (String op : List.of("mm.default", "bmm.default", "matmul.default")) {
            table.put(
                    "aten." + op, (n, cx) -> cx.define(n, cx.node("MatMul", List.of(cx.input(n, 0), cx.input(n, 1)))));
        }
        table.put("aten.linear.default", NnOps::linear);
        table.put("aten.convolution.default", NnOps::convolution);
        table.put("aten.max_pool2d_with_indices.default", NnOps::maxPool);
        table.put("aten.max_pool2d.default", NnOps::maxPool);
        table.put("aten.avg_pool2d.default", NnOps::avgPool);
        table.put("aten._adaptive_avg_pool2d.default", NnOps::adaptiveAvgPool);
        table.put("aten.adaptive_avg_pool2d.default", NnOps::adaptiveAvgPool);
        table.put("aten.native_layer_norm.default", NnOps::layerNorm);
        table.put("aten.layer_norm.default", NnOps::layerNorm);
        table.put("aten.rms_norm.default", NnOps::rmsNorm);
        table.put("aten._native_batch_norm_legit_no_training.default", NnOps::batchNorm);
        table.put("aten.softmax.int", (n, cx) -> softmax("Softmax", n, cx));
        table.put("aten._softmax.default", (n, cx) -> softmax("Softmax", n, cx));
        table.put("aten.log_softmax.int", (n, cx) -> softmax("LogSoftmax", n, cx));
        table.put("aten._log_softmax.default", (n, cx) -> softmax("LogSoftmax", n, cx));
        table.put("aten.scaled_dot_product_attention.default", NnOps::attention);
        table.put("aten.dropout.default", (n, cx) -> {
            if (cx.bool(n, 2, false) && cx.number(n, 1, 0) > 0) throw unsupported(n, "dropout in training mode");
            cx.define(n, cx.node("Identity", List.of(cx.input(n, 0))));
        });
    }

    /** {@code addmm(bias, a, b, beta, alpha)} = beta * bias + alpha * (a @ b): ONNX's Gemm. */
    private static void addmm(Node n, Lowering cx) {
        cx.define(
                n,
                cx.node(
                        "Gemm",
                        List.of(cx.input(n, 1), cx.input(n, 2), cx.input(n, 0)),
                        OnnxGraph.attr("alpha", (float) cx.number(n, 4, 1)),
                        OnnxGraph.attr("beta", (float) cx.number(n, 3, 1))));
    }

    private static void linear(Node n, Lowering cx) {
        String x = cx.input(n, 0), w = cx.input(n, 1);
        if (shape(cx.tensorArg(n, 0)).length == 2 && cx.has(n, 2)) {
            cx.define(n, cx.node("Gemm", List.of(x, w, cx.input(n, 2)), OnnxGraph.attr("transB", 1L)));
            return;
        }
        String y = cx.node(
                "MatMul", List.of(x, cx.node("Transpose", List.of(w), OnnxGraph.attr("perm", new long[] {1, 0}))));
        cx.define(n, cx.has(n, 2) ? cx.node("Add", List.of(y, cx.input(n, 2))) : y);
    }

    /** {@code convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)}. */
    private static void convolution(Node n, Lowering cx) {
        int spatial = shape(cx.tensorArg(n, 1)).length - 2;
        List<String> inputs = new ArrayList<>(List.of(cx.input(n, 0), cx.input(n, 1)));
        if (cx.has(n, 2)) inputs.add(cx.input(n, 2));
        long[] padding = repeat(cx.ints(n, 4), spatial);
        boolean transposed = cx.bool(n, 6, false);
        var attrs = new ArrayList<>(List.of(
                OnnxGraph.attr("strides", repeat(cx.ints(n, 3), spatial)),
                OnnxGraph.attr("pads", twice(padding)),
                OnnxGraph.attr("dilations", repeat(cx.ints(n, 5), spatial)),
                OnnxGraph.attr("group", cx.integer(n, 8, 1)),
                OnnxGraph.attr("kernel_shape", Arrays.copyOfRange(shape(cx.tensorArg(n, 1)), 2, 2 + spatial))));
        if (transposed) attrs.add(OnnxGraph.attr("output_padding", repeat(cx.ints(n, 7), spatial)));
        cx.define(
                n,
                cx.node(
                        transposed ? "ConvTranspose" : "Conv",
                        inputs,
                        attrs.toArray(org.jtorch.onnx.proto.OnnxProto.AttributeProto[]::new)));
    }

    /** {@code max_pool2d(_with_indices)(x, kernel, stride, padding, dilation, ceil_mode)}; indices are not exported. */
    private static void maxPool(Node n, Lowering cx) {
        long[] kernel = repeat(cx.ints(n, 1), 2);
        long[] stride = cx.has(n, 2) && cx.ints(n, 2).length > 0 ? repeat(cx.ints(n, 2), 2) : kernel;
        long[] padding = cx.has(n, 3) ? repeat(cx.ints(n, 3), 2) : new long[] {0, 0};
        long[] dilation = cx.has(n, 4) ? repeat(cx.ints(n, 4), 2) : new long[] {1, 1};
        String y = cx.node(
                "MaxPool",
                List.of(cx.input(n, 0)),
                OnnxGraph.attr("kernel_shape", kernel),
                OnnxGraph.attr("strides", stride),
                OnnxGraph.attr("pads", twice(padding)),
                OnnxGraph.attr("dilations", dilation),
                OnnxGraph.attr("ceil_mode", cx.bool(n, 5, false) ? 1L : 0L));
        if (n.target().endsWith("with_indices.default")) cx.defineTuple(n, Arrays.asList(y, null));
        else cx.define(n, y);
    }

    /** {@code avg_pool2d(x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)}. */
    private static void avgPool(Node n, Lowering cx) {
        if (cx.has(n, 6)) throw unsupported(n, "divisor_override has no ONNX equivalent");
        long[] kernel = repeat(cx.ints(n, 1), 2);
        long[] stride = cx.has(n, 2) && cx.ints(n, 2).length > 0 ? repeat(cx.ints(n, 2), 2) : kernel;
        long[] padding = cx.has(n, 3) ? repeat(cx.ints(n, 3), 2) : new long[] {0, 0};
        cx.define(
                n,
                cx.node(
                        "AveragePool",
                        List.of(cx.input(n, 0)),
                        OnnxGraph.attr("kernel_shape", kernel),
                        OnnxGraph.attr("strides", stride),
                        OnnxGraph.attr("pads", twice(padding)),
                        OnnxGraph.attr("ceil_mode", cx.bool(n, 4, false) ? 1L : 0L),
                        OnnxGraph.attr("count_include_pad", cx.bool(n, 5, true) ? 1L : 0L)));
    }

    /**
     * Output 1x1 as {@code ReduceMean} over the two spatial axes, as PyTorch's exporter writes it (ONNX Runtime 1.30
     * runs it 1.1-4.8x faster than {@code GlobalAveragePool}: benchmarks/peers/onnx_global_pool.py); an exact tiling
     * (input a multiple of the output) as AveragePool; else refused.
     */
    private static void adaptiveAvgPool(Node n, Lowering cx) {
        long[] out = repeat(cx.ints(n, 1), 2);
        long[] in = shape(cx.tensorArg(n, 0));
        long h = in[in.length - 2], w = in[in.length - 1];
        if (out[0] == 1 && out[1] == 1) {
            long[] spatial = {in.length - 2, in.length - 1};
            cx.define(
                    n,
                    cx.node(
                            "ReduceMean",
                            List.of(cx.input(n, 0), cx.graph().int64s(spatial)),
                            OnnxGraph.attr("keepdims", 1L)));
        } else if (h % out[0] == 0 && w % out[1] == 0) {
            long[] k = {h / out[0], w / out[1]};
            cx.define(
                    n,
                    cx.node(
                            "AveragePool",
                            List.of(cx.input(n, 0)),
                            OnnxGraph.attr("kernel_shape", k),
                            OnnxGraph.attr("strides", k)));
        } else {
            throw unsupported(n, "output size " + Arrays.toString(out) + " does not tile the input " + h + "x" + w);
        }
    }

    /** {@code native_layer_norm(x, normalized_shape, weight, bias, eps)}: ONNX's LayerNormalization (output 0). */
    private static void layerNorm(Node n, Lowering cx) {
        long[] normalized = cx.ints(n, 1);
        DType dt = dtype(cx.tensorArg(n, 0));
        List<String> inputs = new ArrayList<>(List.of(cx.input(n, 0)));
        inputs.add(
                cx.has(n, 2)
                        ? cx.input(n, 2)
                        : cx.graph().constant(Torch.ones(normalized).to(dt)));
        if (cx.has(n, 3)) inputs.add(cx.input(n, 3));
        String y = cx.node(
                "LayerNormalization",
                inputs,
                OnnxGraph.attr("axis", (long) -normalized.length),
                OnnxGraph.attr("epsilon", (float) cx.number(n, 4, 1e-5)));
        if (n.target().equals("aten.native_layer_norm.default")) cx.defineTuple(n, Arrays.asList(y, null, null));
        else cx.define(n, y);
    }

    /** {@code rms_norm(x, normalized_shape, weight, eps)}: x / sqrt(mean(x², last dims) + eps) * weight. */
    private static void rmsNorm(Node n, Lowering cx) {
        long[] normalized = cx.ints(n, 1);
        DType dt = dtype(n);
        int rank = shape(n).length;
        long[] axes = new long[normalized.length];
        for (int i = 0; i < axes.length; i++) axes[i] = rank - normalized.length + i;
        double eps = cx.has(n, 3) ? cx.number(n, 3, 0) : epsilonOf(dt);
        String x = cx.input(n, 0);
        String meanSquare = cx.node(
                "ReduceMean",
                List.of(cx.node("Mul", List.of(x, x)), cx.graph().int64s(axes)),
                OnnxGraph.attr("keepdims", 1L));
        String scale = cx.node(
                "Reciprocal",
                List.of(cx.node(
                        "Sqrt",
                        List.of(cx.node("Add", List.of(meanSquare, cx.graph().scalar(dt, eps)))))));
        String y = cx.node("Mul", List.of(x, scale));
        cx.define(n, cx.has(n, 2) ? cx.node("Mul", List.of(y, cx.input(n, 2))) : y);
    }

    /** {@code torch.finfo(dtype).eps}, RMSNorm's default epsilon. */
    private static double epsilonOf(DType dt) {
        return switch (dt) {
            case FLOAT64 -> Math.ulp(1.0);
            case FLOAT16 -> 0.0009765625;
            case BFLOAT16 -> 0.0078125;
            default -> Math.ulp(1.0f);
        };
    }

    /** {@code _native_batch_norm_legit_no_training(x, weight, bias, mean, var, momentum, eps)}: inference BN. */
    private static void batchNorm(Node n, Lowering cx) {
        long channels = shape(cx.tensorArg(n, 0))[1];
        DType dt = dtype(cx.tensorArg(n, 0));
        String scale = cx.has(n, 1)
                ? cx.input(n, 1)
                : cx.graph().constant(Torch.ones(channels).to(dt));
        String bias = cx.has(n, 2)
                ? cx.input(n, 2)
                : cx.graph().constant(Torch.zeros(channels).to(dt));
        String y = cx.node(
                "BatchNormalization",
                List.of(cx.input(n, 0), scale, bias, cx.input(n, 3), cx.input(n, 4)),
                OnnxGraph.attr("epsilon", (float) cx.number(n, 6, 1e-5)));
        cx.defineTuple(n, Arrays.asList(y, null, null));
    }

    private static void softmax(String onnx, Node n, Lowering cx) {
        int rank = shape(n).length;
        String x = cx.operand(cx.arg(n, 0), dtype(n), n);
        cx.define(n, cx.node(onnx, List.of(x), OnnxGraph.attr("axis", ShapeOps.normalize(cx.integer(n, 1, -1), rank))));
    }

    /**
     * {@code scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal, scale, enable_gqa)} composed of
     * MatMul, Softmax and masking (ONNX's own Attention op needs opset 23).
     */
    private static void attention(Node n, Lowering cx) {
        if (cx.number(n, 4, 0) != 0) throw unsupported(n, "dropout_p > 0 (training) has no inference form");
        if (cx.bool(n, 7, false)) throw unsupported(n, "enable_gqa");
        long[] q = shape(cx.tensorArg(n, 0)), k = shape(cx.tensorArg(n, 1));
        DType dt = dtype(n);
        double scale = cx.has(n, 6) ? cx.number(n, 6, 0) : 1 / Math.sqrt(q[q.length - 1]);
        int rank = k.length;
        long[] perm = new long[rank];
        for (int i = 0; i < rank; i++) perm[i] = i;
        perm[rank - 2] = rank - 1;
        perm[rank - 1] = rank - 2;
        String kt = cx.node("Transpose", List.of(cx.input(n, 1)), OnnxGraph.attr("perm", perm));
        String scores = cx.node(
                "Mul",
                List.of(
                        cx.node("MatMul", List.of(cx.input(n, 0), kt)),
                        cx.graph().scalar(dt, scale)));
        if (cx.bool(n, 5, false)) {
            long l = q[q.length - 2], s = k[k.length - 2];
            scores = cx.node(
                    "Where",
                    List.of(
                            cx.graph().constant(Torch.ones(l, s).to(DType.BOOL).tril()),
                            scores,
                            cx.graph().scalar(dt, Double.NEGATIVE_INFINITY)));
        }
        if (cx.has(n, 3)) {
            Node mask = cx.tensorArg(n, 3);
            scores = dtype(mask) == DType.BOOL
                    ? cx.node(
                            "Where", List.of(cx.value(mask), scores, cx.graph().scalar(dt, Double.NEGATIVE_INFINITY)))
                    : cx.node("Add", List.of(scores, cx.cast(cx.value(mask), dtype(mask), dt)));
        }
        String weights = cx.node("Softmax", List.of(scores), OnnxGraph.attr("axis", -1L));
        cx.define(n, cx.node("MatMul", List.of(weights, cx.input(n, 2))));
    }

    /** A per-dimension list given with one element for all dimensions, expanded. */
    static long[] repeat(long[] values, int dims) {
        if (values.length == dims) return values;
        if (values.length != 1) throw new IllegalArgumentException("expected 1 or " + dims + " values");
        long[] out = new long[dims];
        Arrays.fill(out, values[0]);
        return out;
    }

    private static long[] twice(long[] padding) {
        long[] pads = Arrays.copyOf(padding, padding.length * 2);
        System.arraycopy(padding, 0, pads, padding.length, padding.length);
        return pads;
    }
}
