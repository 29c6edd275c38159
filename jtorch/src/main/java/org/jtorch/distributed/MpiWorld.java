package org.jtorch.distributed;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jtorch.kernels.mpi.Communicator;
import org.jtorch.kernels.mpi.Mpi;

/**
 * The initialised MPI environment of this process: the communication thread, {@code MPI_COMM_WORLD}, the timeout of
 * every call, and whether an earlier timeout has left MPI unusable (a blocking MPI call cannot be cancelled, so once
 * one has timed out the communication thread is stuck in it for good).
 */
final class MpiWorld {
    final CommunicationThread thread;
    final Communicator comm;
    final Duration timeout;
    /** Whether this process called {@code MPI_Init_thread} (and must finalize), or found MPI initialised. */
    private final boolean ownsMpi;

    private volatile String broken;

    private MpiWorld(CommunicationThread thread, Communicator comm, Duration timeout, boolean ownsMpi) {
        this.thread = thread;
        this.comm = comm;
        this.timeout = timeout;
        this.ownsMpi = ownsMpi;
    }

    /** Initialises MPI on a new communication thread. */
    static MpiWorld start(Duration timeout) {
        if (!Mpi.isAvailable()) {
            throw new DistributedException(
                    "initProcessGroup: the mpi backend needs Open MPI: " + Mpi.unavailableReason());
        }
        CommunicationThread thread = new CommunicationThread();
        try {
            return thread.submit("MPI_Init_thread", () -> {
                        if (Mpi.finalized()) {
                            throw new DistributedException("initProcessGroup: MPI was finalized by"
                                    + " destroyProcessGroup and cannot be initialised again in this process");
                        }
                        boolean owns = !Mpi.initialized();
                        if (owns) {
                            int provided = Mpi.initThread(Mpi.THREAD_FUNNELED);
                            if (provided < Mpi.THREAD_FUNNELED) {
                                throw new DistributedException("initProcessGroup: MPI provides thread level " + provided
                                        + ", JTorch needs MPI_THREAD_FUNNELED (1)");
                            }
                        }
                        return new MpiWorld(thread, Mpi.world(), timeout, owns);
                    })
                    .get();
        } catch (ExecutionException e) {
            thread.stop();
            if (e.getCause() instanceof DistributedException d) throw d;
            throw new DistributedException("initProcessGroup: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DistributedException("initProcessGroup: interrupted while initialising MPI");
        }
    }

    /** Finalizes MPI (if this process initialised it) and ends the communication thread. */
    void finish() {
        if (broken == null && ownsMpi) {
            callAndWait("destroyProcessGroup", "MPI_Finalize", () -> {
                Mpi.finalizeMpi();
                return null;
            });
        }
        thread.stop();
    }

    /**
     * Runs {@code body} on the communication thread and waits for it within the timeout; failures become a
     * DistributedException naming {@code call}, and a timeout leaves MPI unusable.
     */
    <T> T callAndWait(String call, String description, Callable<T> body) {
        requireUsable(call);
        try {
            return thread.submit(description, body).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw new DistributedException(
                    call + " failed on rank " + comm.rank() + ": "
                            + e.getCause().getMessage(),
                    e.getCause());
        } catch (TimeoutException e) {
            markBroken(call);
            throw new DistributedException(call + " on rank " + comm.rank() + " timed out after "
                    + timeout.toMillis() / 1000.0 + " s: every rank must make the same call");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DistributedException(call + " on rank " + comm.rank() + ": interrupted while waiting");
        }
    }

    /** Records that {@code call} timed out: MPI is stuck in it, and no later call can run. */
    void markBroken(String call) {
        if (broken == null) broken = call;
    }

    /** Throws if an earlier timeout left MPI unusable. */
    void requireUsable(String call) {
        String cause = broken;
        if (cause != null) {
            throw new DistributedException(call + " on rank " + comm.rank() + ": the process group is unusable since "
                    + cause + " timed out (MPI cannot cancel a call in progress); end this process");
        }
    }

    /** The message for a launcher ending this process while a call is in progress, or null when idle. */
    String interruptedActivity() {
        String activity = thread.activity();
        if (activity == null) return null;
        return "jtorch.distributed: rank " + comm.rank() + " of " + comm.size()
                + " is being terminated while in " + activity
                + ": the launcher ended the job, usually because another rank exited or died (see its report)";
    }
}
