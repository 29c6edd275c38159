/** Storage layer: the bytes behind tensors; imports nothing above it. */
package org.jtorch.storage;
