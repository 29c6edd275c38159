package org.jtorch.optim.lr;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtorch.optim.Optimizer;

/**
 * {@code CosineAnnealingWarmRestarts} (SGDR): cosine annealing from the base rate to {@code eta_min} over {@code T_i}
 * epochs, then a restart with {@code T_i *= T_mult}. Steps may be fractional ({@link #step(double)}, e.g. {@code epoch
 * + batch / batches}).
 */
public final class CosineAnnealingWarmRestarts extends LRScheduler {
    private int t0;
    private int tI;
    private int tMult;
    private double etaMin;
    /** {@code T_cur}: epochs since the last restart (fractional under {@link #step(double)}). */
    private double tCur;

    /** {@code CosineAnnealingWarmRestarts(optimizer, T_0)}: T_mult 1, eta_min 0. */
    public CosineAnnealingWarmRestarts(Optimizer optimizer, int t0) {
        this(optimizer, t0, 1, 0.0);
    }

    /** {@code CosineAnnealingWarmRestarts(optimizer, T_0, T_mult, eta_min)}. */
    public CosineAnnealingWarmRestarts(Optimizer optimizer, int t0, int tMult, double etaMin) {
        this(optimizer, t0, tMult, etaMin, -1);
    }

    /** {@code CosineAnnealingWarmRestarts(optimizer, T_0, T_mult, eta_min, last_epoch)}. */
    public CosineAnnealingWarmRestarts(Optimizer optimizer, int t0, int tMult, double etaMin, int lastEpoch) {
        if (t0 <= 0) throw new IllegalArgumentException("Expected positive integer T_0, but got " + t0);
        if (tMult < 1) throw new IllegalArgumentException("Expected integer T_mult >= 1, but got " + tMult);
        this.t0 = t0;
        this.tI = t0;
        this.tMult = tMult;
        this.etaMin = etaMin;
        this.tCur = lastEpoch;
        super(optimizer, lastEpoch);
    }

    /** {@code T_cur}. */
    public double tCur() {
        return tCur;
    }

    /** {@code T_i}: the length of the current cycle. */
    public int tI() {
        return tI;
    }

    @Override
    protected List<Double> computeLr() {
        List<Double> out = new ArrayList<>();
        for (double base : baseLrs) out.add(etaMin + (base - etaMin) * (1 + Math.cos(Math.PI * tCur / tI)) / 2);
        return out;
    }

    /** {@code step()}: one epoch further, restarting when the cycle is complete. */
    @Override
    public void step() {
        if (lastEpoch < 0) {
            jumpTo(0);
            return;
        }
        tCur = tCur + 1;
        if (tCur >= tI) {
            tCur = tCur % tI;
            tI = tI * tMult;
        }
        apply(lastEpoch + 1);
    }

    /** {@code step(epoch)}: jumps to {@code epoch}. */
    @Override
    public void step(int epoch) {
        if (epoch < 0) throw new IllegalArgumentException("Expected non-negative epoch, but got " + epoch);
        jumpTo(epoch);
    }

    /** {@code step(epoch)} with a fractional epoch; it must be non-negative. */
    public void step(double epoch) {
        if (epoch < 0) throw new IllegalArgumentException("Expected non-negative epoch, but got " + epoch);
        jumpTo(epoch);
    }

    private void jumpTo(double epoch) {
        if (epoch >= t0) {
            if (tMult == 1) {
                tCur = epoch % t0;
            } else {
                int n = (int) (Math.log(epoch / t0 * (tMult - 1) + 1) / Math.log(tMult));
                tCur = epoch - t0 * (Math.pow(tMult, n) - 1) / (tMult - 1);
                tI = t0 * (int) Math.pow(tMult, n);
            }
        } else {
            tI = t0;
            tCur = epoch;
        }
        apply(epoch);
    }

    private void apply(double epoch) {
        lastEpoch = (int) Math.floor(epoch);
        setLrs(computeLr());
    }

    @Override
    protected void writeOwnState(Map<String, Object> sd) {
        sd.put("T_0", t0);
        sd.put("T_i", tI);
        sd.put("T_mult", tMult);
        sd.put("eta_min", etaMin);
        sd.put("T_cur", tCur);
    }

    @Override
    protected void readOwnState(Map<String, Object> sd) {
        if (sd.containsKey("T_0")) t0 = ((Number) sd.get("T_0")).intValue();
        if (sd.containsKey("T_i")) tI = ((Number) sd.get("T_i")).intValue();
        if (sd.containsKey("T_mult")) tMult = ((Number) sd.get("T_mult")).intValue();
        if (sd.containsKey("eta_min")) etaMin = ((Number) sd.get("eta_min")).doubleValue();
        if (sd.containsKey("T_cur")) tCur = ((Number) sd.get("T_cur")).doubleValue();
    }
}
