package org.jtorch.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Multi-process tests: each starts {@code mpirun --oversubscribe -np N} on a small main class of this package and
 * checks what the ranks report. Two and three ranks, so that code right only for even sizes fails.
 */
class MpiLaunchTest {
    private static final Duration TIMEOUT = Duration.ofMinutes(4);

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void everyCollectiveOnEveryDtypeMatchesTheLocalReference(int ranks) throws Exception {
        MpiRun.Result r = MpiRun.run(ranks, TIMEOUT, CollectivesCheck.class);
        assertEquals(0, r.exitCode(), r.output());
        for (int rank = 0; rank < ranks; rank++) {
            assertTrue(r.output().contains("checks passed on rank " + rank + " of " + ranks), r.output());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void ddpOnRanksOfBatch8MatchesOneProcessOnTheWholeBatch(int ranks) throws Exception {
        MpiRun.Result r = MpiRun.run(ranks, TIMEOUT, DdpCheck.class);
        assertEquals(0, r.exitCode(), r.output());
        for (int rank = 0; rank < ranks; rank++) {
            assertTrue(r.output().contains("ddp: passed on rank " + rank + " of " + ranks), r.output());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void aKilledRankMakesTheOthersFailWithAClearErrorWithinAMinute(int ranks) throws Exception {
        MpiRun.Result r = MpiRun.run(ranks, TIMEOUT, KilledRankCheck.class);
        assertNotEquals(0, r.exitCode(), r.output());
        assertNotEquals(-1, r.exitCode(), r.output());
        String out = r.output();
        Matcher killed = Pattern.compile("rank 1 is killing itself at (\\d+)").matcher(out);
        assertTrue(killed.find(), out);
        // The launcher names the dead rank; the survivor names the call it was in, whichever way it learnt of the death
        // (the launcher ending the job, an MPI error, or the timeout).
        assertTrue(out.contains("exited on signal 9"), out);
        String survivor = "rank 0 of " + ranks;
        assertTrue(
                out.contains("jtorch.distributed: " + survivor + " is being terminated while in allReduce")
                        || out.contains("allReduce failed on " + survivor)
                        || out.contains("allReduce on " + survivor + " timed out"),
                out);
        long afterKill = r.endMillis() - Long.parseLong(killed.group(1));
        assertTrue(afterKill < 60_000, "the job ended " + afterKill + " ms after the kill");
    }
}
