/** Faults injected into a running agent's order store, for the specs of what a failed commit does. */
import type { RunningAgent } from '../../agent/app.ts';

/** The next commit throws (as a full disk would); the ones after it work again. */
export function failNextCommit(agent: RunningAgent): void {
	const store = (agent.engine as unknown as { store: { commit: (...a: unknown[]) => void } }).store;
	const commit = store.commit.bind(store);
	store.commit = () => {
		store.commit = commit;
		throw new Error('disk full');
	};
}
