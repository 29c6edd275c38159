package org.jtorch.examples;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.examples.gpt.Gpt;
import org.jtorch.examples.gpt.GptConfig;
import org.jtorch.io.Serialization;
import org.jtorch.nn.Module;

/**
 * Porting a model from PyTorch: loads a state dict that real PyTorch saved ({@code torch.save(model.state_dict())} of a
 * tiny GPT built from Embedding, LayerNorm, Linear, GELU and causal attention; made by
 * {@code examples/src/test/python/make_port_fixture.py}) into the same architecture written with JTorch's {@code nn}
 * modules, runs the input PyTorch ran, and compares the logits with PyTorch's.
 *
 * <p>Run: {@code ./mvnw -B -q -pl examples -am -DskipTests package exec:exec
 * -Dexample.main=org.jtorch.examples.PortFromPyTorch}
 */
public final class PortFromPyTorch {
    private PortFromPyTorch() {}

    /** JTorch's logits next to PyTorch's for the fixture's input. */
    public record Comparison(Tensor jtorch, Tensor pytorch, double maxAbsDiff, Module.IncompatibleKeys keys) {}

    public static void main(String[] args) {
        Comparison c = run();
        System.out.println("PyTorch state dict loaded into JTorch's Gpt: missing "
                + c.keys().missingKeys() + ", unexpected " + c.keys().unexpectedKeys());
        System.out.printf(
                "logits %s: max |JTorch − PyTorch| = %.3g%n",
                java.util.Arrays.toString(c.jtorch().shape()), c.maxAbsDiff());
        boolean sameArgmax = java.util.Arrays.equals(
                c.jtorch().argmax(-1L).toLongArray(), c.pytorch().argmax(-1L).toLongArray());
        System.out.println("same most likely next token at every position: " + sameArgmax);
        if (c.maxAbsDiff() > 1e-4 || !sameArgmax) {
            System.err.println("JTorch does not reproduce PyTorch's outputs");
            System.exit(1);
        }
    }

    /** Loads the fixture, ports the weights, and runs both inputs. */
    @SuppressWarnings("unchecked")
    public static Comparison run() {
        Map<String, Tensor> stateDict = (Map<String, Tensor>) Serialization.load(resource("tiny_gpt.pt"));
        Map<String, Object> io = (Map<String, Object>) Serialization.load(resource("tiny_gpt_io.pt"));
        GptConfig config = GptConfig.fromMap((Map<?, ?>) io.get("config"));
        Gpt model = new Gpt(config);
        Module.IncompatibleKeys keys = model.loadStateDict(stateDict); // strict: every key must match
        model.eval();
        Tensor expected = (Tensor) io.get("logits");
        Tensor logits;
        try (var _ = Torch.noGrad()) {
            logits = model.logits((Tensor) io.get("input"));
        }
        double diff = logits.sub(expected).abs().max().item();
        return new Comparison(logits, expected, diff, keys);
    }

    /** The fixture copied out of the classpath (the examples may run from a jar), as a file to load. */
    private static Path resource(String name) {
        try (InputStream in = PortFromPyTorch.class.getResourceAsStream("port/" + name)) {
            if (in == null) throw new IllegalStateException("fixture port/" + name + " is missing from the classpath");
            Path tmp = Files.createTempFile("jtorch-port-", ".pt");
            tmp.toFile().deleteOnExit();
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            return tmp;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
