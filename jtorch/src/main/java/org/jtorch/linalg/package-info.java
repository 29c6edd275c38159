/** {@code torch.linalg}: matrix factorisations and the functions built on them ({@link org.jtorch.linalg.Linalg}). */
package org.jtorch.linalg;
