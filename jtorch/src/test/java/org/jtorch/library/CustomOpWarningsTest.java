package org.jtorch.library;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchWarningException;
import org.jtorch.Warning;
import org.jtorch.WarningRecorder;
import org.jtorch.Warnings;
import org.jtorch.kernels.cpu.Parallel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Warnings a custom op's kernel raises reach the caller's filters and {@code catchWarnings()} scope, also when the
 * kernel raises them from the intra-op workers of a parallel region.
 */
class CustomOpWarningsTest {
    /** The threads that ran a piece of the last parallel kernel. */
    private static final Set<Thread> PIECE_THREADS = ConcurrentHashMap.newKeySet();

    /** Warns from the calling thread, then from each piece of a two-piece parallel region, and returns its input. */
    private static final CustomOp NOISY = Library.customOp("mylib::noisy", "(Tensor x) -> Tensor", args -> {
                Warnings.warn("mylib::noisy: from the kernel");
                PIECE_THREADS.clear();
                CountDownLatch bothStarted = new CountDownLatch(2);
                Parallel.forRange(2, 1, (start, end) -> {
                    PIECE_THREADS.add(Thread.currentThread());
                    bothStarted.countDown();
                    awaitQuietly(bothStarted); // holds the caller's piece so that a worker claims the other one
                    Warnings.warn("mylib::noisy: from piece " + start);
                });
                return ((Tensor) args[0]).clone();
            })
            .registerFake(args -> Torch.emptyLike((Tensor) args[0]));

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @AfterEach
    void resetFilters() {
        Warnings.resetFilters();
    }

    @Test
    void catchWarningsRecordsTheKernelsWarningsFromEveryThread() {
        Tensor x = Torch.tensor(new float[] {1f, 2f});
        List<Warning> records;
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            assertArrayEquals(x.toFloatArray(), ((Tensor) NOISY.call(x)).toFloatArray());
            records = rec.records();
        }
        List<String> messages = records.stream().map(Warning::message).sorted().toList();
        assertEquals(
                List.of("mylib::noisy: from piece 0", "mylib::noisy: from piece 1", "mylib::noisy: from the kernel"),
                messages);
        if (Parallel.numThreads() > 1) {
            assertTrue(PIECE_THREADS.size() == 2, "a worker ran a piece: " + PIECE_THREADS);
        }
    }

    @Test
    void theErrorActionTurnsAWorkersWarningIntoAnException() {
        Warnings.filter(Warnings.Category.USER_WARNING, Warnings.Action.IGNORE, "mylib::noisy: from the kernel");
        Warnings.filter(Warnings.Category.USER_WARNING, Warnings.Action.ERROR, "mylib::noisy: from piece");
        var e = assertThrows(TorchWarningException.class, () -> NOISY.call(Torch.tensor(new float[] {1f})));
        assertTrue(e.getMessage().contains("mylib::noisy: from piece"), e.getMessage());
    }

    @Test
    void aWorkerLeavesNoScopeBehind() {
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            NOISY.call(Torch.tensor(new float[] {1f}));
            assertEquals(3, rec.records().size());
        }
        // Outside the scope a worker's warning is filtered again, here into an exception.
        Warnings.filter(Warnings.Category.USER_WARNING, Warnings.Action.IGNORE, "mylib::noisy: from the kernel");
        Warnings.filter(Warnings.Category.USER_WARNING, Warnings.Action.ERROR, "mylib::noisy: from piece");
        assertThrows(TorchWarningException.class, () -> NOISY.call(Torch.tensor(new float[] {1f})));
    }
}
