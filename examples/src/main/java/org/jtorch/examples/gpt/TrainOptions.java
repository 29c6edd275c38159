package org.jtorch.examples.gpt;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * TrainGpt's command line. Every flag has a default, so no flags trains the README's main job. The settings that shape
 * the loss curve ({@link #curveSettings()}) are stored in checkpoints and restored on {@code --resume}, so a resumed
 * run continues the same run.
 */
public final class TrainOptions {
    public int layers = 4;
    public int heads = 4;
    public int embd = 128;
    public int block = 128;
    public String norm = "layernorm";
    public int steps = DEFAULT_STEPS;
    public int stopAfter = -1;
    public int batch = 16;
    public double lr = 2e-3;
    public double minLrRatio = 0.1;
    public int warmup = 30;
    public double weightDecay = 0.1;
    public double gradClip = 1.0;
    public String optimizer = "adamw";
    /** {@code --amp}: "off", or "bf16" for the forward pass inside {@code torch.autocast("cpu", torch.bfloat16)}. */
    public String amp = "off";
    /** {@code --compile}: "off", or the {@code Torch.compile} backend the model's calls run through. */
    public String compile = "off";

    public long seed = 1337;
    public Path resume;
    public Path out = Path.of("target", "gpt");
    public Path corpus;
    public int threads = Runtime.getRuntime().availableProcessors();
    public int evalEvery = 100;
    public int evalBatches = 16;
    public int sampleTokens = 400;
    public double temperature = 0.8;
    public int topK = 20;
    /** {@code --ddp}: "off", or "mpi" to train data-parallel across the ranks {@code mpirun} started. */
    public String ddp = "off";
    /**
     * {@code --ddp-bucket-mb}: DistributedDataParallel's gradient bucket size; null for PyTorch's default (25 MiB, the
     * first bucket 1 MiB).
     */
    public Double ddpBucketMb;
    /**
     * {@code --ddp-final-bucket-mb}: the cap of a separate last gradient bucket (DistributedDataParallel's
     * {@code finalBucketCapMb}); null for none, as in PyTorch.
     */
    public Double ddpFinalBucketMb;

    public boolean help;
    /** Whether {@code --steps} was given (a resumed run otherwise keeps its checkpoint's step count). */
    public boolean stepsGiven;

    /**
     * Default length of the main job: about 2–3 minutes on 2 cores at the default size (measured 3,300 tokens/s at a
     * load average of 4, i.e. 300 × 2,048 tokens in ~3 minutes; faster when the machine is quiet).
     */
    public static final int DEFAULT_STEPS = 300;

    public static final String USAGE = """
            Usage: TrainGpt [options]
            Trains a character-level GPT (nanoGPT's architecture) on the shipped King James Version text
            (Genesis to Ruth), evaluates it on the held-out 10%%, writes a checkpoint, a loss plot and a sample.

            Model:
              --layers N         transformer blocks (default 4)
              --heads N          attention heads (default 4)
              --embd N           embedding width, a multiple of --heads (default 128)
              --block N          context length in characters (default 128)
              --norm NAME        layernorm | rmsnorm (default layernorm)
            Training:
              --steps N          optimizer steps (default %d)
              --batch N          sequences per step (default 16)
              --lr X             peak learning rate; linear warmup, cosine decay to lr/10 (default 2e-3)
              --warmup N         warmup steps (default 30)
              --weight-decay X   decoupled weight decay of the 2-D weights (default 0.1)
              --grad-clip X      clip the global gradient norm to X, 0 = off (default 1.0)
              --optimizer NAME   adamw | muon (Muon for the blocks' 2-D weights, AdamW for the rest) (default adamw)
              --amp MODE         off | bf16: forward pass and loss under CPU autocast in bfloat16 (default off)
              --compile BACKEND  off | eager | aot_eager | inductor: the model's calls through Torch.compile
                                 (default off)
              --seed N           seed of the initialisation and of the batch sampler (default 1337)
              --corpus FILE      train on a UTF-8 text file instead of the shipped corpus
            Checkpoints and output:
              --out DIR          where the checkpoint, plot and sample go (default target/gpt)
              --resume FILE      continue from a checkpoint.pt written by an earlier run: the model, optimizer,
                                 RNG states, step and all settings above come from it, so the loss curve is the
                                 one an uninterrupted run would have drawn (only --steps may be changed)
              --stop-after N     stop after step N and write the checkpoint (the schedule still runs to --steps)
            Evaluation and sampling:
              --eval-every N     held-out loss every N steps (default 100)
              --eval-batches N   batches per held-out evaluation (default 16)
              --sample-tokens N  characters to generate at the end (default 400)
              --temperature X    sampling temperature (default 0.8)
              --top-k N          sample among the N most likely characters, 0 = all (default 20)
            Runtime:
              --threads N        intra-op threads for JTorch and OpenBLAS (default: all cores)
              --ddp MODE         off | mpi: data-parallel over the ranks mpirun started (bin/jtorch-run -np N
                                 TrainGpt --ddp mpi): each rank takes its share of --batch, rank 0 prints and
                                 writes the checkpoint, plot and sample (default off)
              --ddp-bucket-mb X  gradient bucket size of --ddp, in MiB, the first bucket's too (default:
                                 PyTorch's, 25 with a first bucket of 1)
              --ddp-final-bucket-mb X
                                 cap of a separate last bucket, in MiB, for the gradients backward produces
                                 last: less to all-reduce after backward (default: none, as in PyTorch)
              --help             this text
            """.formatted(DEFAULT_STEPS);

    /**
     * Parses and validates {@code args}: unknown flags, bad values, a missing {@code --resume} or {@code --corpus} file
     * and {@code --heads} that does not divide {@code --embd} throw IllegalArgumentException naming the flag.
     */
    public static TrainOptions parse(String[] args) {
        TrainOptions o = new TrainOptions();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--help") || flag.equals("-h")) {
                o.help = true;
                continue;
            }
            if (i + 1 >= args.length) throw new IllegalArgumentException(flag + " needs a value (see --help)");
            String v = args[++i];
            switch (flag) {
                case "--layers" -> o.layers = positive(flag, v);
                case "--heads" -> o.heads = positive(flag, v);
                case "--embd" -> o.embd = positive(flag, v);
                case "--block" -> o.block = positive(flag, v);
                case "--norm" -> o.norm = choice(flag, v, "layernorm", "rmsnorm");
                case "--steps" -> {
                    o.steps = positive(flag, v);
                    o.stepsGiven = true;
                }
                case "--stop-after" -> o.stopAfter = positive(flag, v);
                case "--batch" -> o.batch = positive(flag, v);
                case "--lr" -> o.lr = nonNegative(flag, v);
                case "--warmup" -> o.warmup = (int) nonNegative(flag, v);
                case "--weight-decay" -> o.weightDecay = nonNegative(flag, v);
                case "--grad-clip" -> o.gradClip = nonNegative(flag, v);
                case "--optimizer" -> o.optimizer = choice(flag, v, "adamw", "muon");
                case "--seed" -> o.seed = longValue(flag, v);
                case "--amp" -> o.amp = choice(flag, v, "off", "bf16");
                case "--compile" -> o.compile = choice(flag, v, "off", "eager", "aot_eager", "inductor");
                case "--resume" -> o.resume = Path.of(v);
                case "--out" -> o.out = Path.of(v);
                case "--corpus" -> o.corpus = Path.of(v);
                case "--threads" -> o.threads = positive(flag, v);
                case "--ddp" -> o.ddp = choice(flag, v, "off", "mpi");
                case "--ddp-bucket-mb" -> o.ddpBucketMb = positiveDouble(flag, v);
                case "--ddp-final-bucket-mb" -> o.ddpFinalBucketMb = positiveDouble(flag, v);
                case "--eval-every" -> o.evalEvery = positive(flag, v);
                case "--eval-batches" -> o.evalBatches = positive(flag, v);
                case "--sample-tokens" -> o.sampleTokens = (int) nonNegative(flag, v);
                case "--temperature" -> o.temperature = positiveDouble(flag, v);
                case "--top-k" -> o.topK = (int) nonNegative(flag, v);
                default -> throw new IllegalArgumentException("unknown option " + flag + " (see --help)");
            }
        }
        o.validate();
        return o;
    }

    /** The checks that involve several flags or the file system, so that a run never starts to fail later. */
    private void validate() {
        if (resume != null && !Files.isRegularFile(resume))
            throw new IllegalArgumentException("--resume " + resume + ": no such file");
        if (corpus != null && !Files.isRegularFile(corpus))
            throw new IllegalArgumentException("--corpus " + corpus + ": no such file");
        if (out != null && Files.exists(out) && !Files.isDirectory(out))
            throw new IllegalArgumentException("--out " + out + " is a file, not a directory");
        // A resumed run takes the model's shape from its checkpoint.
        if (resume == null && embd % heads != 0)
            throw new IllegalArgumentException("--heads " + heads + " must divide --embd " + embd);
        if (stopAfter > 0 && stepsGiven && stopAfter > steps)
            throw new IllegalArgumentException("--stop-after " + stopAfter + " is past --steps " + steps);
    }

    /** The settings that determine the loss curve, as stored in a checkpoint. */
    public Map<String, Object> curveSettings() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("steps", (long) steps);
        m.put("batch", (long) batch);
        m.put("lr", lr);
        m.put("min_lr_ratio", minLrRatio);
        m.put("warmup", (long) warmup);
        m.put("weight_decay", weightDecay);
        m.put("grad_clip", gradClip);
        m.put("optimizer", optimizer);
        m.put("seed", seed);
        m.put("amp", amp);
        // Not a curve setting, but it fixes the held-out windows, so that a checker can recompute the evaluation.
        m.put("eval_batches", (long) evalBatches);
        return m;
    }

    /** Restores {@link #curveSettings()} from a checkpoint; {@code --steps} given on the command line wins. */
    public void restoreCurveSettings(Map<?, ?> m) {
        if (!stepsGiven) steps = ((Number) m.get("steps")).intValue();
        batch = ((Number) m.get("batch")).intValue();
        lr = ((Number) m.get("lr")).doubleValue();
        minLrRatio = ((Number) m.get("min_lr_ratio")).doubleValue();
        warmup = ((Number) m.get("warmup")).intValue();
        weightDecay = ((Number) m.get("weight_decay")).doubleValue();
        gradClip = ((Number) m.get("grad_clip")).doubleValue();
        optimizer = (String) m.get("optimizer");
        seed = ((Number) m.get("seed")).longValue();
        if (m.get("amp") instanceof String a) amp = a;
        if (m.get("eval_batches") instanceof Number n) evalBatches = n.intValue();
    }

    /**
     * nanoGPT's schedule: linear warmup to {@code lr}, then cosine decay to {@code lr · minLrRatio} at the last step.
     */
    public double learningRate(int step) {
        if (step < warmup) return lr * (step + 1) / warmup;
        double progress = steps - warmup <= 1 ? 1 : (double) (step - warmup) / (steps - warmup - 1);
        double minLr = lr * minLrRatio;
        return minLr + 0.5 * (1 + Math.cos(Math.PI * Math.min(1, progress))) * (lr - minLr);
    }

    private static int positive(String flag, String v) {
        long n = longValue(flag, v);
        if (n <= 0 || n > Integer.MAX_VALUE)
            throw new IllegalArgumentException(flag + " must be a positive integer, got " + v);
        return (int) n;
    }

    private static long longValue(String flag, String v) {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " must be an integer, got " + v);
        }
    }

    private static double nonNegative(String flag, String v) {
        double x = doubleValue(flag, v);
        if (!(x >= 0)) throw new IllegalArgumentException(flag + " must be >= 0, got " + v);
        return x;
    }

    private static double positiveDouble(String flag, String v) {
        double x = doubleValue(flag, v);
        if (!(x > 0)) throw new IllegalArgumentException(flag + " must be > 0, got " + v);
        return x;
    }

    private static double doubleValue(String flag, String v) {
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " must be a number, got " + v);
        }
    }

    private static String choice(String flag, String v, String... allowed) {
        for (String a : allowed) if (a.equals(v)) return v;
        throw new IllegalArgumentException(flag + " must be one of " + String.join(", ", allowed) + ", got " + v);
    }
}
