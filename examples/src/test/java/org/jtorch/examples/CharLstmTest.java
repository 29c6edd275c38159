package org.jtorch.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtorch.Torch;
import org.jtorch.examples.gpt.CharCorpus;
import org.junit.jupiter.api.Test;

/** The character-level LSTM at a tiny size: logits per character, it learns, and it writes text of the corpus. */
class CharLstmTest {
    @Test
    void logitsCoverTheVocabularyAtEveryStep() {
        Torch.manualSeed(0);
        CharLstm.Model m = new CharLstm.Model(30, 16, 2);
        assertArrayEquals(
                new long[] {3, 7, 30}, m.call(Torch.randint(0, 30, 3, 7)).shape());
    }

    @Test
    void itLearnsTheCorpusBetterThanCharacterFrequencies() {
        CharLstm.Result r = CharLstm.run(150, 64, 1, 16, 32, 40);
        assertTrue(r.lastLoss() < r.firstLoss() - 0.5, r.toString());
        assertTrue(r.lastLoss() < r.unigramLoss(), "context helps: " + r);
        assertEquals("In the beginning".length() + 40, r.sample().length());
        String vocab = CharCorpus.load(null).vocab();
        for (char c : r.sample().toCharArray()) assertTrue(vocab.indexOf(c) >= 0, "sampled from the vocabulary: " + c);
    }
}
