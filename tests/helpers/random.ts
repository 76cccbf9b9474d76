/** The core's seeded generator (mulberry32), for tests and benches: core/random.ts. */
export { seededRandom } from '../../core/random.ts';
