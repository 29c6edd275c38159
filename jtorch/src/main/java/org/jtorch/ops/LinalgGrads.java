package org.jtorch.ops;

import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.TorchException;

/**
 * Backward rules of the decompositions in {@link LinalgOps}, after PyTorch's {@code FunctionsManual}
 * ({@code linalg_eig_backward} for Hermitian input, {@code svd_backward}, {@code linalg_qr_backward}) and the 2.14
 * {@code matrix_sqrth} rule. All are written in differentiable ops, so gradients of gradients come from the same code.
 * Complex inputs use the conjugate-Wirtinger convention; a loss that depends on the arbitrary phase of complex singular
 * or eigen vectors is refused, as in PyTorch.
 */
final class LinalgGrads {
    private LinalgGrads() {}

    private static Tensor eye(long n, Tensor like) {
        return Creation.EYE.call1(n, n, like.dtype().toReal(), like.device());
    }

    /** {@code X - X^H}. */
    private static Tensor skew(Tensor x) {
        return x.sub(x.mH());
    }

    /** Refuses a loss that depends on the phase of the vectors: |x| must stay within atol + rtol |ref|. */
    private static void gaugeCheck(Tensor x, Tensor ref, double rtol, double atol, String message) {
        if (x.numel() == 0) return;
        double excess = x.abs().sub(ref.abs().mul(rtol)).amax().item();
        if (!(excess <= atol)) throw new TorchException(message);
    }

    /** eigh: {@code gA = V (skew(V^H gV)/2 ./ E + diag(gL)) V^H} with {@code E_ij = L_j - L_i} off the diagonal. */
    static Tensor eigh(Tensor l, Tensor v, Tensor gl, Tensor gv) {
        if (gv == null) return gl == null ? null : v.mul(gl.unsqueeze(-2)).matmul(v.mH());
        Tensor vhgv = v.mH().matmul(gv);
        if (v.isComplex()) {
            gaugeCheck(
                    vhgv.diagonal(0, -2, -1).imag(),
                    vhgv.diagonal(0, -2, -1).imag().mul(0.0),
                    1e-2,
                    1e-3,
                    "linalg_eigh_backward: The eigenvectors in the complex case are specified up to "
                            + "multiplication by e^{i phi}."
                            + " The specified loss function depends on this quantity, so it is ill-defined.");
        }
        Tensor eye = eye(l.size(-1), l);
        Tensor e = l.unsqueeze(-2).sub(l.unsqueeze(-1)).add(eye);
        Tensor inner = skew(vhgv).mul(0.5).div(e).mul(eye.neg().add(1.0));
        if (gl != null) inner = inner.add(gl.diagEmbed());
        return v.matmul(inner).matmul(v.mH());
    }

    /**
     * svd: PyTorch's svd_backward. With full matrices only the first k = min(m, n) singular vectors carry information,
     * so everything is narrowed to them first.
     */
    static Tensor svd(boolean full, Tensor u, Tensor s, Tensor vh, Tensor gu, Tensor gs, Tensor gvh) {
        if (gu == null && gs == null && gvh == null) return null;
        long k = s.size(-1);
        if (full) {
            u = u.narrow(-1, 0, k);
            vh = vh.narrow(-2, 0, k);
            if (gu != null) gu = gu.narrow(-1, 0, k);
            if (gvh != null) gvh = gvh.narrow(-2, 0, k);
        }
        long m = u.size(-2), n = vh.size(-1);
        if (gu == null && gvh == null) {
            return m >= n
                    ? u.matmul(gs.unsqueeze(-1).mul(vh))
                    : u.mul(gs.unsqueeze(-2)).matmul(vh);
        }
        Tensor uhgu = gu == null ? null : skew(u.mH().matmul(gu));
        Tensor vhgv = gvh == null ? null : skew(vh.matmul(gvh.mH()));
        if (u.isComplex()) {
            Tensor imU = uhgu == null ? s.mul(0.0) : uhgu.diagonal(0, -2, -1).imag();
            Tensor imV = vhgv == null ? s.mul(0.0) : vhgv.diagonal(0, -2, -1).imag();
            gaugeCheck(
                    imU.add(imV),
                    imV,
                    1e-2,
                    1e-2,
                    "svd_backward: The singular vectors in the complex case are specified up to"
                            + " multiplication by e^{i phi}. The specified loss function depends on this "
                            + "phase term, making it ill-defined.");
        }
        Tensor s2 = s.mul(s), eye = eye(k, s);
        Tensor e = s2.unsqueeze(-2).sub(s2.unsqueeze(-1)).add(eye);
        Tensor ret;
        if (uhgu != null && vhgv != null)
            ret = uhgu.mul(s.unsqueeze(-2)).add(s.unsqueeze(-1).mul(vhgv)).div(e);
        else if (uhgu != null) ret = uhgu.mul(s.unsqueeze(-2)).div(e);
        else ret = s.unsqueeze(-1).mul(vhgv).div(e);
        // the diagonal: gS, and for complex input the phase term that the gauge U's side absorbs
        ret = ret.mul(eye.neg().add(1.0));
        if (gs != null) ret = ret.add(gs.diagEmbed());
        if (u.isComplex() && uhgu != null)
            ret = ret.add(uhgu.diagonal(0, -2, -1).div(s.mul(2.0)).diagEmbed());
        if (m > n && gu != null) {
            Tensor gusinv = gu.div(s.unsqueeze(-2));
            Tensor ga = u.matmul(ret).add(gusinv).sub(u.matmul(u.mH().matmul(gusinv)));
            return ga.matmul(vh);
        }
        if (m < n && gvh != null) {
            Tensor sinvgvh = gvh.div(s.unsqueeze(-1));
            Tensor ga = ret.matmul(vh).add(sinvgvh).sub(sinvgvh.matmul(vh.mH()).matmul(vh));
            return u.matmul(ga);
        }
        return u.matmul(ret).matmul(vh);
    }

    /**
     * qr: for m >= n (reduced), {@code gA = (gQ + Q syminvadj(triu(gR R^H - Q^H gQ))) R^-H}; for m < n the square QR of
     * A's first m columns X takes {@code gQ + Y gV^H}, and {@code gY = Q gV} (A = [X | Y], R = [U | V]).
     */
    static Tensor qr(String mode, Tensor q, Tensor r, Tensor gq, Tensor gr) {
        if (gq == null && gr == null) return null;
        if (mode.equals("r")) {
            throw new TorchException(
                    "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use"
                            + " linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.");
        }
        long m = q.size(-2), n = r.size(-1);
        if (mode.equals("complete") && m > n) {
            throw new TorchException(
                    "The QR decomposition is not differentiable when mode='complete' and nrows > ncols.");
        }
        if (m >= n) return tallQr(q, r, gq, gr);
        Tensor u = r.narrow(-1, 0, m), v = r.narrow(-1, m, n - m);
        Tensor gu = gr == null ? null : gr.narrow(-1, 0, m), gv = gr == null ? null : gr.narrow(-1, m, n - m);
        Tensor gqx = gq;
        if (gv != null) {
            Tensor y = q.matmul(v);
            gqx = gqx == null ? y.matmul(gv.mH()) : gqx.add(y.matmul(gv.mH()));
        }
        Tensor gx = tallQr(q, u, gqx, gu);
        Tensor gy = gv == null ? q.matmul(v).mul(0.0) : q.matmul(gv);
        return JoinOps.cat(List.of(gx, gy), -1);
    }

    private static Tensor tallQr(Tensor q, Tensor r, Tensor gq, Tensor gr) {
        Tensor m;
        if (gq != null && gr != null) m = gr.matmul(r.mH()).sub(q.mH().matmul(gq));
        else if (gq != null) m = q.mH().matmul(gq).neg();
        else m = gr.matmul(r.mH());
        Tensor t = m.triu();
        // syminvadj: T + T^H with the (real) diagonal counted once
        Tensor sym = t.add(t.mH()).sub(t.diagonal(0, -2, -1).real().diagEmbed());
        Tensor b = q.matmul(sym);
        if (gq != null) b = b.add(gq);
        return LinalgOps.solve(r.mH(), b, false);
    }

    /**
     * matrix_sqrth (2.14): X = sqrt(A) solves {@code X dX + dX X = dA}, so gA solves {@code X gA + gA X = (G + G^H)/2}:
     * in A's eigenbasis, divide by {@code s_i + s_j}.
     */
    static Tensor matrixSqrth(Tensor a, Tensor g) {
        Tensor[] lq = LinalgOps.eigh(a, "L");
        Tensor q = lq[1];
        Tensor gs = g.add(g.mH()).mul(0.5);
        Tensor inner = q.mH().matmul(gs).matmul(q).mul(sqrtDividedDifferences(lq[0]));
        return q.matmul(inner).matmul(q.mH());
    }

    /**
     * The Daleckii-Krein matrix of {@code f(x) = sqrt(max(x, 0))} at the eigenvalues, {@code (f_i - f_j) / (l_i -
     * l_j)}, which is {@code 1 / (s_i + s_j)} when both are positive (written so, without cancellation), and 0 when
     * both are clamped (f is flat there). A clamped eigenvalue must not enter as {@code 1 / (s_i + s_j)}: that is the
     * slope of the square root, not of the clamped function, and infinite for two clamped eigenvalues.
     */
    private static Tensor sqrtDividedDifferences(Tensor eigenvalues) {
        Tensor pos = eigenvalues.gt(0.0);
        // the square root only where it is taken: sqrt's infinite slope at 0 would turn a masked gradient into NaN
        Tensor s = TernaryOps.where(pos, TernaryOps.where(pos, eigenvalues, 1.0).sqrt(), 0.0);
        Tensor li = eigenvalues.unsqueeze(-1), lj = eigenvalues.unsqueeze(-2);
        Tensor si = s.unsqueeze(-1), sj = s.unsqueeze(-2);
        Tensor posI = pos.unsqueeze(-1), posJ = pos.unsqueeze(-2);
        Tensor both = PointwiseOps.LOGICAL_AND.call1(posI, posJ);
        Tensor one = PointwiseOps.LOGICAL_XOR.call1(posI, posJ);
        Tensor sum = TernaryOps.where(both, si.add(sj), 1.0);
        Tensor gap = TernaryOps.where(one, li.sub(lj), 1.0);
        Tensor mixed = TernaryOps.where(one, si.sub(sj).div(gap), 0.0);
        return TernaryOps.where(both, sum.reciprocal(), mixed);
    }

    /** {@code sylv(H, R)}: X with {@code H X + X H = R} for Hermitian positive-definite H, in H's eigenbasis. */
    private static Tensor sylvester(Tensor h, Tensor r) {
        Tensor[] lq = LinalgOps.eigh(h, "L");
        Tensor q = lq[1], s = lq[0];
        Tensor inner = q.mH().matmul(r).matmul(q).div(s.unsqueeze(-1).add(s.unsqueeze(-2)));
        return q.matmul(inner).matmul(q.mH());
    }

    /**
     * polar (spec/linalg.md): with {@code C = U^H gU}, {@code gA = (gU - U C) H^-1 + U sylv(H, C - C^H)} and, for gH,
     * {@code + A sylv(H, gH + gH^H)}. Needs H positive definite (A of full column rank).
     */
    static Tensor polar(Tensor a, Tensor u, Tensor h, Tensor gu, Tensor gh) {
        Tensor ga = null;
        if (gu != null) {
            Tensor c = u.mH().matmul(gu);
            Tensor normal = LinalgOps.solve(h, gu.sub(u.matmul(c)), false);
            ga = normal.add(u.matmul(sylvester(h, c.sub(c.mH()))));
        }
        if (gh != null) {
            Tensor z = a.matmul(sylvester(h, gh.add(gh.mH())));
            ga = ga == null ? z : ga.add(z);
        }
        return ga;
    }

    /**
     * pinv: PyTorch's {@code pinv_backward}, written with {@code P = pinv(A)} only (Golub and Pereyra's derivative of a
     * constant-rank pseudo-inverse), so it stays finite for rank-deficient A, where the SVD's rule divides by
     * differences of repeated zero singular values: {@code gA = -P^H G P^H + (I - A P) G^H P P^H + P^H P G^H (I - P
     * A)}, grouped so that every intermediate product is at most min(m, n) on one side.
     */
    static Tensor pinv(Tensor g, Tensor p, Tensor a) {
        Tensor ph = p.mH(), gh = g.mH();
        if (a.size(-2) <= a.size(-1)) {
            Tensor k = gh.matmul(p);
            Tensor kph = k.matmul(ph);
            return p.matmul(k)
                    .mH()
                    .neg()
                    .add(kph)
                    .sub(a.matmul(p).matmul(kph))
                    .add(ph.matmul(p).matmul(gh.sub(k.matmul(a))));
        }
        Tensor k = p.matmul(gh);
        Tensor phk = ph.matmul(k);
        return k.matmul(p)
                .mH()
                .neg()
                .add(gh.sub(a.matmul(k)).matmul(p).matmul(ph))
                .add(phk)
                .sub(phk.matmul(p).matmul(a));
    }

    /**
     * pinv's forward-mode rule, PyTorch's {@code pinv_jvp}: {@code dP = -P dA P + P P^H dA^H (I - A P) + (I - P A) dA^H
     * P^H P}, again grouped by the smaller side.
     */
    static Tensor pinvJvp(Tensor a, Tensor p, Tensor da) {
        Tensor dah = da.mH(), ph = p.mH();
        if (a.size(-2) <= a.size(-1)) {
            Tensor k = ph.matmul(dah);
            return p.matmul(k.sub(k.mH()).sub(k.matmul(a.matmul(p))))
                    .add(dah.sub(p.matmul(a.matmul(dah))).matmul(ph.matmul(p)));
        }
        Tensor k = p.matmul(da);
        Tensor kh = k.mH();
        return kh.sub(k)
                .sub(p.matmul(a).matmul(kh))
                .matmul(p)
                .add(p.matmul(ph).matmul(dah.sub(dah.matmul(a).matmul(p))));
    }
}
