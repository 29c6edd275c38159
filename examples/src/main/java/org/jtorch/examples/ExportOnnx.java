package org.jtorch.examples;

import java.nio.file.Path;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.AdaptiveAvgPool2d;
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
import org.jtorch.onnx.Onnx;
import org.jtorch.onnx.OnnxOptions;

/**
 * Writes a model as ONNX with a dynamic batch axis: TrainGpt's GPT (from {@code --checkpoint FILE}, else freshly
 * initialised at TrainGpt's default size) or one of the small modules the exporter's tests use, the same ones
 * {@code examples/src/test/python/compare_onnx_exports.py} exports with PyTorch 2.13 to compare the graphs.
 *
 * <pre>
 * --model gpt|mlp|cnn|encoder   which model (default gpt)
 * --checkpoint FILE             TrainGpt's checkpoint.pt, for gpt
 * --context T                   the GPT example's sequence length (default 64; the exported graph is specialized to it)
 * --opset N                     18 to 21 (default 20)
 * --out FILE                    where to write (default target/&lt;model&gt;.onnx)
 * </pre>
 *
 * Run it with {@code -Dexample.main=org.jtorch.examples.ExportOnnx -Dexample.args="--checkpoint ..."}.
 */
public final class ExportOnnx {
    private ExportOnnx() {}

    public static void main(String[] args) {
        String model = "gpt";
        Path checkpoint = null, out = null;
        int context = 64, opset = OnnxOptions.DEFAULT_OPSET;
        for (int i = 0; i < args.length; i++) {
            if (i + 1 >= args.length) usage(args[i] + " needs a value");
            String v = args[++i];
            switch (args[i - 1]) {
                case "--model" -> model = v;
                case "--checkpoint" -> checkpoint = Path.of(v);
                case "--context" -> context = Integer.parseInt(v);
                case "--opset" -> opset = Integer.parseInt(v);
                case "--out" -> out = Path.of(v);
                default -> usage("unknown flag " + args[i - 1]);
            }
        }
        if (out == null) out = Path.of("target", model + ".onnx");
        Torch.manualSeed(0);
        Module m;
        Tensor example;
        switch (model) {
            case "gpt" -> {
                try {
                    m = ServeModel.loadGpt(checkpoint);
                } catch (java.io.UncheckedIOException | IllegalArgumentException e) {
                    usage(e.getMessage());
                    return;
                }
                example = Torch.zeros(new long[] {2, context}, DType.INT64);
            }
            case "mlp" -> {
                m = new Sequential(new Linear(16, 32), new GELU(), new Linear(32, 8));
                example = Torch.randn(2, 16);
            }
            case "cnn" -> {
                m = new Sequential(
                        new Conv2d(3, 8, new long[] {3}, ConvOptions.defaults().padding(1)),
                        new BatchNorm2d(8),
                        new ReLU(),
                        new MaxPool2d(2),
                        new Conv2d(8, 16, 3),
                        new AdaptiveAvgPool2d(1),
                        new Flatten(),
                        new Linear(16, 10));
                example = Torch.randn(2, 3, 16, 16);
            }
            case "encoder" -> {
                m = new TransformerEncoderLayer(32, 4, 64, 0.1, "gelu", 1e-5, true, false, true);
                example = Torch.randn(2, 10, 32);
            }
            default -> {
                usage("unknown model " + model + " (gpt, mlp, cnn, encoder)");
                return;
            }
        }
        m.eval();
        OnnxOptions options = OnnxOptions.defaults().withOpset(opset).withDynamicAxis(0, 0, "batch");
        Onnx.export(m, new Tensor[] {example}, out, options);
        System.out.printf("ExportOnnx: %s -> %s (opset %d, dynamic batch axis)%n", model, out, opset);
    }

    private static void usage(String why) {
        System.err.println("ExportOnnx: " + why);
        System.exit(2);
    }
}
