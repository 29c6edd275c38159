package org.jtorch.examples.gpt;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * A character-level corpus (nanoGPT's {@code shakespeare_char} preparation): the vocabulary is the sorted set of
 * characters, the first 90% of the text is the training split and the rest the held-out split.
 */
public final class CharCorpus {
    /** The corpus shipped with the examples (see PROVENANCE.md beside it). */
    public static final String DEFAULT_RESOURCE = "kjv-genesis-ruth.txt";

    private final String vocab;
    private final int[] index = new int[Character.MAX_VALUE + 1];
    private final Tensor train;
    private final Tensor val;

    private CharCorpus(String text, String vocab) {
        this.vocab = vocab;
        java.util.Arrays.fill(index, -1);
        for (int i = 0; i < vocab.length(); i++) index[vocab.charAt(i)] = i;
        long[] ids = encodeToArray(text);
        int split = (int) (ids.length * 0.9);
        Tensor all = Torch.tensor(ids);
        train = all.narrow(0, 0, split);
        val = all.narrow(0, split, ids.length - split);
    }

    /**
     * The shipped corpus, or a UTF-8 text file when {@code path} is not null; the vocabulary is taken from the text.
     */
    public static CharCorpus load(Path path) {
        String text = path == null ? readResource() : readFile(path);
        TreeSet<Character> chars = new TreeSet<>();
        for (int i = 0; i < text.length(); i++) chars.add(text.charAt(i));
        StringBuilder vocab = new StringBuilder();
        for (char c : chars) vocab.append(c);
        return new CharCorpus(text, vocab.toString());
    }

    /** The same text encoded with a given vocabulary (a resumed run keeps its checkpoint's vocabulary). */
    public static CharCorpus load(Path path, String vocab) {
        return new CharCorpus(path == null ? readResource() : readFile(path), vocab);
    }

    private static String readResource() {
        try (InputStream in = CharCorpus.class.getResourceAsStream(DEFAULT_RESOURCE)) {
            if (in == null)
                throw new IllegalStateException(
                        "corpus resource " + DEFAULT_RESOURCE + " is missing from the classpath");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readFile(Path path) {
        try {
            return Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read corpus " + path, e);
        }
    }

    public String vocab() {
        return vocab;
    }

    public int vocabSize() {
        return vocab.length();
    }

    public Tensor trainTokens() {
        return train;
    }

    public Tensor valTokens() {
        return val;
    }

    /** Token ids of {@code text}; every character must be in the vocabulary. */
    public Tensor encode(String text) {
        return Torch.tensor(encodeToArray(text));
    }

    private long[] encodeToArray(String text) {
        long[] ids = new long[text.length()];
        for (int i = 0; i < ids.length; i++) {
            int id = index[text.charAt(i)];
            if (id < 0)
                throw new IllegalArgumentException(
                        "character '" + text.charAt(i) + "' at " + i + " is not in the vocabulary");
            ids[i] = id;
        }
        return ids;
    }

    /** The text of token ids. */
    public String decode(Tensor ids) {
        StringBuilder sb = new StringBuilder();
        for (long id : ids.toLongArray()) sb.append(vocab.charAt((int) id));
        return sb.toString();
    }

    /**
     * nanoGPT's {@code get_batch}: {@code batch} random windows of {@code blockSize + 1} tokens of {@code split};
     * returns {inputs [B, T], targets [B, T]} (targets are the inputs shifted by one).
     */
    public static Tensor[] batch(Tensor split, int batch, int blockSize, Generator generator) {
        long[] starts = Torch.randint(0, split.size(0) - blockSize, new long[] {batch}, generator)
                .toLongArray();
        List<Tensor> xs = new ArrayList<>(batch), ys = new ArrayList<>(batch);
        for (long s : starts) {
            xs.add(split.narrow(0, s, blockSize));
            ys.add(split.narrow(0, s + 1, blockSize));
        }
        return new Tensor[] {Torch.stack(xs), Torch.stack(ys)};
    }

    /**
     * The cross entropy (nats per character) of the held-out split under the training split's character frequencies
     * (add-one smoothed): the loss of a model that ignores context.
     */
    public double unigramBaseline() {
        long[] counts = new long[vocabSize()];
        for (long id : train.toLongArray()) counts[(int) id]++;
        double total = train.size(0) + vocabSize();
        double nll = 0;
        long[] heldOut = val.toLongArray();
        for (long id : heldOut) nll -= Math.log((counts[(int) id] + 1) / total);
        return nll / heldOut.length;
    }
}
