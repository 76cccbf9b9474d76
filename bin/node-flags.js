/**
 * The V8 flags the simulator runs with (bin/kds-sim.js gives them to node; the container's
 * ENTRYPOINT and the benches use the same): the young generation capped at semi-spaces of 4 MiB.
 * Left to V8 they grow to 32 MiB on a machine with 16 GB or more and stay grown after a burst of
 * orders: with 10,000 orders the agent held ~200 MiB, with the cap ~150, at no measured cost in
 * CPU per order (docs/performance.md, "Memory: the young generation").
 */
export const NODE_FLAGS = ['--max-semi-space-size=4'];
