package org.jtorch.optim;

import org.jtorch.Tensor;

/**
 * The strong-Wolfe line search of {@link LBFGS} ({@code torch.optim.lbfgs._strong_wolfe}, ported from Torch7's
 * {@code lswolfe.lua}): a bracketing phase followed by a zoom phase, both driven by cubic interpolation. Scalars
 * (losses, directional derivatives, step lengths) are doubles; the gradients stay flat tensors in the parameters'
 * dtype.
 */
final class StrongWolfe {
    private StrongWolfe() {}

    /** The objective at {@code x + t·d}: loss and flat gradient (the parameters are restored afterwards). */
    @FunctionalInterface
    interface Objective {
        Evaluation at(double t);
    }

    /** One evaluation: the loss and the flat gradient. */
    record Evaluation(double loss, Tensor flatGrad) {}

    /** The accepted step: loss and flat gradient there, the step length and the number of evaluations. */
    record Result(double loss, Tensor flatGrad, double t, int evals) {}

    static final double C1 = 1e-4;
    static final double C2 = 0.9;
    static final int MAX_LS = 25;

    /**
     * Searches along {@code d} from the current point (loss {@code f}, gradient {@code g}, directional derivative
     * {@code gtd = g·d < 0}) starting with step {@code t}.
     */
    static Result search(Objective obj, double t, Tensor d, double f, Tensor g, double gtd, double toleranceChange) {
        double dNorm = d.abs().max().item();
        Evaluation e = obj.at(t);
        double fNew = e.loss();
        Tensor gNew = e.flatGrad();
        int evals = 1;
        double gtdNew = gNew.dot(d).item();

        // Bracketing: find an interval containing a point that satisfies the strong Wolfe conditions.
        double tPrev = 0, fPrev = f, gtdPrev = gtd;
        Tensor gPrev = g;
        Bracket bracket = null;
        boolean done = false;
        int lsIter = 0;
        while (lsIter < MAX_LS) {
            if (fNew > f + C1 * t * gtd || (lsIter > 1 && fNew >= fPrev)) {
                bracket = new Bracket(tPrev, fPrev, gPrev, gtdPrev, t, fNew, gNew, gtdNew);
                break;
            }
            if (Math.abs(gtdNew) <= -C2 * gtd) {
                bracket = Bracket.single(t, fNew, gNew);
                done = true;
                break;
            }
            if (gtdNew >= 0) {
                bracket = new Bracket(tPrev, fPrev, gPrev, gtdPrev, t, fNew, gNew, gtdNew);
                break;
            }
            double minStep = t + 0.01 * (t - tPrev);
            double maxStep = t * 10;
            double previous = t;
            t = cubicInterpolate(tPrev, fPrev, gtdPrev, t, fNew, gtdNew, minStep, maxStep);
            tPrev = previous;
            fPrev = fNew;
            gPrev = gNew;
            gtdPrev = gtdNew;
            e = obj.at(t);
            fNew = e.loss();
            gNew = e.flatGrad();
            evals++;
            gtdNew = gNew.dot(d).item();
            lsIter++;
        }
        if (lsIter == MAX_LS) {
            // No bracket within the budget: the zoom loop below cannot run, the better end is returned.
            bracket = new Bracket(0, f, g, Double.NaN, t, fNew, gNew, Double.NaN);
        }

        // Zoom: shrink the bracket until a point satisfies the conditions.
        boolean insufficientProgress = false;
        int low = bracket.f[0] <= bracket.f[bracket.size - 1] ? 0 : 1;
        int high = 1 - low;
        while (!done && lsIter < MAX_LS) {
            if (Math.abs(bracket.t[1] - bracket.t[0]) * dNorm < toleranceChange) break;
            t = cubicInterpolate(
                    bracket.t[0], bracket.f[0], bracket.gtd[0], bracket.t[1], bracket.f[1], bracket.gtd[1]);

            // A trial point within 10% of the bracket length from an end counts as insufficient progress;
            // twice in a row, or outside the bracket, it is moved 10% inside.
            double hi = Math.max(bracket.t[0], bracket.t[1]), lo = Math.min(bracket.t[0], bracket.t[1]);
            double eps = 0.1 * (hi - lo);
            if (Math.min(hi - t, t - lo) < eps) {
                if (insufficientProgress || t >= hi || t <= lo) {
                    t = Math.abs(t - hi) < Math.abs(t - lo) ? hi - eps : lo + eps;
                    insufficientProgress = false;
                } else {
                    insufficientProgress = true;
                }
            } else {
                insufficientProgress = false;
            }

            e = obj.at(t);
            fNew = e.loss();
            gNew = e.flatGrad();
            evals++;
            gtdNew = gNew.dot(d).item();
            lsIter++;

            if (fNew > f + C1 * t * gtd || fNew >= bracket.f[low]) {
                // Armijo condition fails or the point is not below the lowest end: it becomes the high end.
                bracket.set(high, t, fNew, gNew, gtdNew);
                low = bracket.f[0] <= bracket.f[1] ? 0 : 1;
                high = 1 - low;
            } else {
                if (Math.abs(gtdNew) <= -C2 * gtd) {
                    done = true;
                } else if (gtdNew * (bracket.t[high] - bracket.t[low]) >= 0) {
                    // The old low end becomes the high end.
                    bracket.set(high, bracket.t[low], bracket.f[low], bracket.g[low], bracket.gtd[low]);
                }
                bracket.set(low, t, fNew, gNew, gtdNew);
            }
        }
        return new Result(bracket.f[low], bracket.g[low], bracket.t[low], evals);
    }

    /** The two ends of the search interval (or one accepted point) with loss, gradient and slope at each. */
    private static final class Bracket {
        final double[] t = new double[2], f = new double[2], gtd = new double[2];
        final Tensor[] g = new Tensor[2];
        final int size;

        Bracket(double t0, double f0, Tensor g0, double gtd0, double t1, double f1, Tensor g1, double gtd1) {
            set(0, t0, f0, g0, gtd0);
            set(1, t1, f1, g1, gtd1);
            size = 2;
        }

        private Bracket(double t0, double f0, Tensor g0) {
            set(0, t0, f0, g0, Double.NaN);
            size = 1;
        }

        static Bracket single(double t, double f, Tensor g) {
            return new Bracket(t, f, g);
        }

        void set(int i, double ti, double fi, Tensor gi, double gtdi) {
            t[i] = ti;
            f[i] = fi;
            g[i] = gi;
            gtd[i] = gtdi;
        }
    }

    /** {@code _cubic_interpolate} without bounds: the interval between the two points. */
    static double cubicInterpolate(double x1, double f1, double g1, double x2, double f2, double g2) {
        return cubicInterpolate(x1, f1, g1, x2, f2, g2, Math.min(x1, x2), Math.max(x1, x2));
    }

    /**
     * The minimiser of the cubic through {@code (x1, f1)} and {@code (x2, f2)} with slopes {@code g1}, {@code g2},
     * clamped to {@code [xmin, xmax]}; the bounds' midpoint when the cubic has no minimum.
     */
    static double cubicInterpolate(
            double x1, double f1, double g1, double x2, double f2, double g2, double xminBound, double xmaxBound) {
        double d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2);
        double d2Square = d1 * d1 - g1 * g2;
        if (d2Square >= 0) {
            double d2 = Math.sqrt(d2Square);
            double minPos = x1 <= x2
                    ? x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
                    : x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2));
            return Math.min(Math.max(minPos, xminBound), xmaxBound);
        }
        return (xminBound + xmaxBound) / 2.0;
    }
}
