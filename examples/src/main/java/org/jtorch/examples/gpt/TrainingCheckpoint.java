package org.jtorch.examples.gpt;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.io.Serialization;

/**
 * Everything a run needs to continue exactly where it stopped, saved as one PyTorch {@code .pt} file that
 * {@code torch.load(path, weights_only=True)} reads: model and optimizer state dicts, the default and the batch
 * sampler's RNG states, the step, the settings and the loss history.
 */
public record TrainingCheckpoint(
        Map<String, Tensor> model,
        List<Map<String, Object>> optimizers,
        int step,
        GptConfig config,
        String vocab,
        Map<?, ?> settings,
        Tensor rngState,
        Tensor dataRngState,
        float[] trainLosses,
        List<double[]> valLosses) {

    /** Writes the checkpoint to {@code path} (atomically, as {@code torch.save} does here). */
    public void save(Path path) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("model", model);
        m.put("optimizers", optimizers);
        m.put("step", (long) step);
        m.put("config", config.toMap());
        m.put("vocab", vocab);
        m.put("settings", settings);
        m.put("rng_state", rngState);
        m.put("data_rng_state", dataRngState);
        m.put("train_losses", Torch.tensor(trainLosses));
        double[][] val = valLosses.toArray(new double[0][]);
        m.put("val_losses", val.length == 0 ? Torch.zeros(0, 2).to(DType.FLOAT64) : Torch.tensor(val));
        Serialization.save(m, path);
    }

    /** Reads a checkpoint written by {@link #save}; a file of another shape fails naming the missing entry. */
    @SuppressWarnings("unchecked")
    public static TrainingCheckpoint load(Path path) {
        if (!(Serialization.load(path) instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException(path + " is not a TrainGpt checkpoint (not a dict)");
        }
        Map<String, Tensor> model = (Map<String, Tensor>) require(m, "model", Map.class, path);
        List<Map<String, Object>> optimizers = (List<Map<String, Object>>) require(m, "optimizers", List.class, path);
        int step = require(m, "step", Number.class, path).intValue();
        GptConfig config = GptConfig.fromMap(require(m, "config", Map.class, path));
        String vocab = require(m, "vocab", String.class, path);
        Map<?, ?> settings = require(m, "settings", Map.class, path);
        Tensor rng = require(m, "rng_state", Tensor.class, path);
        Tensor dataRng = require(m, "data_rng_state", Tensor.class, path);
        float[] train = require(m, "train_losses", Tensor.class, path).toFloatArray();
        Tensor val = require(m, "val_losses", Tensor.class, path);
        List<double[]> valLosses = new ArrayList<>();
        double[] flat = val.toDoubleArray();
        for (int i = 0; i + 1 < flat.length; i += 2) valLosses.add(new double[] {flat[i], flat[i + 1]});
        return new TrainingCheckpoint(model, optimizers, step, config, vocab, settings, rng, dataRng, train, valLosses);
    }

    private static <T> T require(Map<?, ?> m, String key, Class<T> type, Path path) {
        Object v = m.get(key);
        if (!type.isInstance(v)) {
            throw new IllegalArgumentException(
                    path + " is not a TrainGpt checkpoint: '" + key + "' is missing or not a " + type.getSimpleName());
        }
        return type.cast(v);
    }
}
