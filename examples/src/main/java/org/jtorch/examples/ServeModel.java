package org.jtorch.examples;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.examples.gpt.CharCorpus;
import org.jtorch.examples.gpt.Gpt;
import org.jtorch.examples.gpt.GptConfig;
import org.jtorch.examples.gpt.TrainingCheckpoint;
import org.jtorch.examples.serve.InferenceServer;
import org.jtorch.examples.serve.ProgramService;
import org.jtorch.examples.serve.ServedModel;
import org.jtorch.export.Export;
import org.jtorch.export.ExportedProgram;
import org.jtorch.nn.functional.F;

/**
 * Serves TrainGpt's model over HTTP: {@code POST /predict} with {@code {"input": [token ids]}} answers the logits of
 * the next token; concurrent requests are batched into one forward pass. {@code GET /health} reports the model and the
 * batches run. Ctrl-C (SIGTERM) shuts down gracefully: requests in flight are answered first.
 *
 * <pre>
 * --checkpoint FILE   a TrainGpt checkpoint.pt (default: a freshly initialised model of TrainGpt's default size)
 * --pt2 FILE          serve the exported program of a .pt2 archive instead (torch.export.save's, or ExportPt2's):
 *                     any program of one tensor input whose first dimension is the batch, and one tensor output
 * --program           serve an ExportedProgram of the model (Export.export, in this process) instead of the module
 * --context N         with --program: the sequence length the program is exported for (default 64)
 * --host H --port P   where to listen (default 127.0.0.1:8080; port 0 picks a free one)
 * --max-batch N       most requests per forward pass (default 64)
 * --max-wait-ms N     longest a batch that is not full waits for requests still being read (default 1)
 * --max-body-bytes N  largest request accepted (default 1048576)
 * </pre>
 *
 * Run it with {@code -Dexample.main=org.jtorch.examples.ServeModel -Dexample.args="--checkpoint ..."}.
 */
public final class ServeModel {
    private ServeModel() {}

    /** The flags, parsed. */
    record Options(
            Path checkpoint,
            Path pt2,
            boolean program,
            int context,
            String host,
            int port,
            int maxBatch,
            int maxWaitMs,
            int maxBodyBytes) {
        static Options parse(String[] args) {
            Path checkpoint = null, pt2 = null;
            boolean program = false;
            int context = 64, port = 8080, maxBatch = 64, maxWaitMs = 1, maxBody = 1 << 20;
            String host = "127.0.0.1";
            for (int i = 0; i < args.length; i++) {
                String flag = args[i];
                if (flag.equals("--program")) {
                    program = true;
                    continue;
                }
                if (i + 1 >= args.length) throw new IllegalArgumentException(flag + " needs a value");
                String v = args[++i];
                switch (flag) {
                    case "--checkpoint" -> checkpoint = Path.of(v);
                    case "--pt2" -> pt2 = Path.of(v);
                    case "--context" -> context = Integer.parseInt(v);
                    case "--host" -> host = v;
                    case "--port" -> port = Integer.parseInt(v);
                    case "--max-batch" -> maxBatch = Integer.parseInt(v);
                    case "--max-wait-ms" -> maxWaitMs = Integer.parseInt(v);
                    case "--max-body-bytes" -> maxBody = Integer.parseInt(v);
                    default -> throw new IllegalArgumentException("unknown flag " + flag);
                }
            }
            if (pt2 != null && (checkpoint != null || program)) {
                throw new IllegalArgumentException("--pt2 serves the archive's program: no --checkpoint or --program");
            }
            return new Options(checkpoint, pt2, program, context, host, port, maxBatch, maxWaitMs, maxBody);
        }
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Options opts;
        try {
            opts = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("ServeModel: " + e.getMessage());
            System.exit(2);
            return;
        }
        ServedModel model;
        try {
            model = load(opts);
        } catch (java.io.UncheckedIOException | IllegalArgumentException | org.jtorch.TorchException e) {
            System.err.println("ServeModel: " + e.getMessage());
            System.exit(2);
            return;
        }
        InferenceServer server = new InferenceServer(
                model, opts.host(), opts.port(), opts.maxBatch(), opts.maxWaitMs() * 1_000_000L, opts.maxBodyBytes());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("ServeModel: shutting down (answering the requests in flight)");
            server.close();
            stopped.countDown();
        }));
        System.out.printf(
                "ServeModel: %s on http://%s:%d (POST /predict {\"input\": [token ids]}, GET /health)%n",
                model.name(), opts.host(), server.port());
        stopped.await();
    }

    /** The model the flags name, as a service. */
    static ServedModel load(Options opts) {
        if (opts.pt2() != null) {
            return ProgramService.of(
                    "program of " + opts.pt2().getFileName(), Export.load(opts.pt2()), opts.maxBatch());
        }
        Gpt gpt = loadGpt(opts.checkpoint());
        String name = opts.checkpoint() == null
                ? "TrainGpt-size GPT (untrained)"
                : "TrainGpt checkpoint " + opts.checkpoint().getFileName();
        if (!opts.program()) return ServedModel.gptNextToken(name, gpt);
        return program(name, gpt, opts.maxBatch(), opts.context());
    }

    /** TrainGpt's model from its checkpoint, or {@link #demoModel()} when {@code checkpoint} is null. */
    static Gpt loadGpt(Path checkpoint) {
        if (checkpoint == null) return demoModel();
        TrainingCheckpoint ckpt = TrainingCheckpoint.load(checkpoint);
        Gpt gpt = new Gpt(ckpt.config());
        gpt.loadStateDict(ckpt.model());
        gpt.eval();
        return gpt;
    }

    /** A GPT of TrainGpt's default size over the shipped corpus's vocabulary, initialised with TrainGpt's seed. */
    public static Gpt demoModel() {
        Torch.manualSeed(1337);
        int vocab = CharCorpus.load(null).vocabSize();
        Gpt gpt = new Gpt(new GptConfig(vocab, 128, 4, 4, 128, "layernorm"));
        gpt.eval();
        return gpt;
    }

    /**
     * The model's next-token logits as an ExportedProgram made here with {@code Export.export} at {@code [batch,
     * context]}; a program read with {@code Export.load(path)} is served the same way.
     */
    public static ServedModel program(String name, Gpt gpt, int batch, int context) {
        GptConfig c = gpt.config();
        if (context < 1 || context > c.blockSize()) {
            throw new IllegalArgumentException("--context must lie in [1, " + c.blockSize() + "], got " + context);
        }
        ExportedProgram ep =
                Export.export(new NextTokenLogits(gpt), Torch.zeros(new long[] {batch, context}, DType.INT64));
        ServedModel.Check tokens = ServedModel.tokenCheck(c.vocabSize(), c.blockSize());
        ServedModel.Check check = example -> {
            tokens.accept(example);
            if (example.size(0) != context) {
                throw new org.jtorch.examples.serve.BadRequest(
                        422, "this program takes exactly " + context + " tokens, got " + example.size(0));
            }
        };
        return ServedModel.ofProgram(name + " as an exported program", ep, batch, batch, DType.INT64, check);
    }

    /** The logits of the token after each sequence: the module the exported program captures. */
    static final class NextTokenLogits extends org.jtorch.nn.Module {
        private final Gpt gpt;

        NextTokenLogits(Gpt gpt) {
            this.gpt = register("gpt", gpt);
        }

        @Override
        public Tensor forward(Tensor idx) {
            return F.linear(gpt.call(idx).select(1, idx.size(1) - 1), gpt.lmHeadWeight());
        }
    }
}
