package org.jtorch.distributed;

import java.io.IOException;
import java.time.Duration;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * Run under {@code mpirun} by {@link MpiLaunchTest}: the ranks all-reduce in a loop until rank 1 kills itself with
 * SIGKILL mid-run; the others must then end with an error naming the call, not hang.
 */
public final class KilledRankCheck {
    private KilledRankCheck() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        // Shorter than the test's one minute, so that even a launcher that left the survivors running would see the
        // timeout fire in time.
        Distributed.initProcessGroup("mpi", Duration.ofSeconds(40));
        Tensor t = Torch.ones(1000);
        for (int step = 0; ; step++) {
            if (Distributed.rank() == 1 && step == 50) {
                System.out.println("rank 1 is killing itself at " + System.currentTimeMillis());
                System.out.flush();
                new ProcessBuilder(
                                "kill",
                                "-KILL",
                                Long.toString(ProcessHandle.current().pid()))
                        .start()
                        .waitFor();
            }
            Distributed.allReduce(t, ReduceOp.AVG);
        }
    }
}
